// A design document with attribute values, prepared for drawing: walked once, each element turned
// by its planner into a positioned, measured plan (prepared.ts), text runs then outlined in one pass.
//
// 1. `substitutedTexts` fills in placeholders; `firstUnsupportedText` loads the fonts the texts need
//    and refuses text the renderer would draw wrong (text-content.ts).
// 2. One planner per element type: text is fitted to its box (text-layout.ts, measured shaped, so
//    what is planned is what is drawn), its lines shaped (text-shaping.ts) and placed; shapes, QR
//    codes and images get their geometry and colours.
// 3. `prepareRender` outlines every text run (glyph-outlines.ts). Painters then only write it out.
import type { AttributeValues } from "./attributes";
import { getAsset, type RenderAsset, type RenderAssets } from "./assets";
import { parseColor } from "./color";
import { canvasSize, FONT_CATALOG, type DesignDocument, type DesignElement } from "./document";
import { defaultFontLibrary, missingInChain, type FontLibrary, type LoadedFont } from "./fonts";
import { baselineIn, LAYOUT_SCALE, outlineRuns, placeRunContents, type RunStyle, type TextRun } from "./glyph-outlines";
import type { Box, DocumentLayout, ElementPlan, ImageDrawing, PreparedRender, Ring, TextPlan } from "./prepared";
import { qrRuns, QR_QUIET_ZONE } from "./qr";
import { mostlyCjk } from "./script-detection";
import { firstUnsupportedText, substitutedTexts, type RenderOptions } from "./text-content";
import { fitText } from "./text-layout";
import { shapeLine } from "./text-shaping";

/** The warning for a text element listed in `overflows`. */
export function overflowWarning(index: number): string {
  return `element ${index}: text does not fit its box and was shortened`;
}

/** What every planner may read, and where text planning reports. */
interface PlanContext {
  doc: DesignDocument;
  width: number;
  height: number;
  texts: Map<number, string>;
  /** The wallet URL QR codes encode (empty: QR codes draw only their background). */
  url: string;
  assets: RenderAssets;
  fonts: FontLibrary;
  faces: Set<LoadedFont>;
  warnings: string[];
  overflows: number[];
}

type Planners = {
  [T in DesignElement["type"]]: (element: Extract<DesignElement, { type: T }>, index: number, ctx: PlanContext) => ElementPlan | null;
};

/** Script faces (Great Vibes, Pinyon Script, Dancing Script) have a small x-height: CJK glyphs (full-em squares) drawn at the same size tower over the Latin text the design was made with. */
const CJK_IN_SCRIPT_SCALE = 0.8;

function clampRadius(r: number, w: number, h: number): number {
  return Math.max(0, Math.min(r, w / 2, h / 2));
}

/** A band of width t inside a box with corner radius r. */
function ringOf(x: number, y: number, w: number, h: number, t: number, r: number): Ring {
  const inner = w - 2 * t > 0 && h - 2 * t > 0 ? { x: x + t, y: y + t, w: w - 2 * t, h: h - 2 * t, r: Math.max(0, r - t) } : null;
  return { outer: { x, y, w, h, r }, inner };
}

/** The rings a border element draws: one for solid, two (each a third of the thickness) for double. */
function borderRings(el: Extract<DesignElement, { type: "border" }>, width: number, height: number): Ring[] {
  const i = el.inset;
  const w = width - 2 * i;
  const h = height - 2 * i;
  if (w <= 0 || h <= 0) return [];
  const r = clampRadius(el.radius, w, h);
  if (el.style === "solid") return [ringOf(i, i, w, h, Math.min(el.thickness, w / 2, h / 2), r)];
  const t = el.thickness / 3;
  const inner = 2 * t;
  const rings = [ringOf(i, i, w, h, t, r)];
  if (w - 2 * inner > 0 && h - 2 * inner > 0)
    rings.push(ringOf(i + inner, i + inner, w - 2 * inner, h - 2 * inner, t, Math.max(0, r - inner)));
  return rings;
}

/** An image fitted into a box: scaled to fit inside it (`contain`) or to cover it (`cover`), centred. */
function imageDrawing(asset: RenderAsset, box: Box, fit: "contain" | "cover", opacity: number): ImageDrawing {
  const { x, y, w, h } = box;
  const s = fit === "cover" ? Math.max(w / asset.width, h / asset.height) : Math.min(w / asset.width, h / asset.height);
  const dw = asset.width * s;
  const dh = asset.height * s;
  return { asset, x, y, w, h, fit, opacity, drawn: { x: x + (w - dw) / 2, y: y + (h - dh) / 2, w: dw, h: dh } };
}

/** A text's lines shaped and placed in its box by its alignment, as runs (empty lines have nothing to draw). */
function placeLines(el: TextPlan["element"], index: number, lines: string[], lineRtl: boolean[], style: RunStyle): TextRun[] {
  const k = LAYOUT_SCALE;
  const block = lines.length * style.lineBox;
  const top = el.y + (el.verticalAlign === "middle" ? (el.height - block) / 2 : el.verticalAlign === "bottom" ? el.height - block : 0);
  const runs: TextRun[] = [];
  lines.forEach((text, i) => {
    if (!text) return;
    const line = shapeLine(text, style.chain, lineRtl[i]);
    const width = line.advance * style.fontSize + line.spaced * style.letterSpacing;
    // Letter spacing follows the last cluster too: leave it out when centring or right-aligning,
    // so the visible glyphs sit where the alignment says.
    const w = width - (line.spaced > 0 && line.clusters[line.clusters.length - 1]?.spaced ? style.letterSpacing : 0);
    const x = el.x + (el.align === "center" ? (el.width - w) / 2 : el.align === "right" ? el.width - w : 0);
    const y = top + i * style.lineBox;
    const baseline = baselineIn(line, style.fontSize * k, style.lineBox * k) / k;
    const { clusters, emoji } = placeRunContents(line, style, x, y, baseline);
    runs.push({ index, text, style, x, y, width, baseline, line, clusters, emoji, outline: { d: "" } });
  });
  return runs;
}

const planners: Planners = {
  text(element, index, ctx) {
    const text = ctx.texts.get(index)!;
    const weight = element.font.weight;
    const chain = ctx.fonts.chain({ text, family: element.font.family, weight, locale: ctx.doc.locale });
    const missing = missingInChain(chain, text);
    // Only in `unsupportedText: "render"` mode: otherwise firstUnsupportedText has thrown already.
    if (missing.length) ctx.warnings.push(`element ${index}: no font for ${missing.join(" ")}`);
    const k = LAYOUT_SCALE;
    // Draw mostly-CJK texts in a script family at 80% (see CJK_IN_SCRIPT_SCALE).
    const adjust = FONT_CATALOG[element.font.family].kind === "script" && mostlyCjk(text) ? CJK_IN_SCRIPT_SCALE : 1;
    const fit = fitText(text, chain, {
      width: element.width * k,
      height: element.height * k,
      size: element.font.size * adjust * k,
      minSize: Math.max(4, Math.min(element.minSize, element.font.size) * adjust) * k,
      maxLines: element.maxLines,
      shrinkToFit: element.shrinkToFit,
      letterSpacing: element.font.letterSpacing * k,
      lineHeight: element.font.lineHeight,
      // Great Vibes' word space is a sixth of an em: names read as one word. Widen it with a thin space.
      wordSpace: element.font.family === "Great Vibes" ? " \u2009" : " ",
    });
    if (!fit.fits) {
      ctx.warnings.push(overflowWarning(index));
      ctx.overflows.push(index);
    }
    for (const f of chain.faces) ctx.faces.add(f);
    const lineWidths = fit.lineWidths.map((w) => w / k);
    const style: RunStyle = {
      fontsId: ctx.fonts.id,
      chain,
      weight,
      fontSize: fit.fontSize / k,
      letterSpacing: element.font.letterSpacing,
      lineBox: fit.lineBox / k,
    };
    return {
      kind: "text",
      index,
      element,
      text,
      lines: fit.lines,
      fontSize: style.fontSize,
      lineBox: style.lineBox,
      lineWidths,
      fits: fit.fits,
      chain,
      color: parseColor(element.font.color),
      runs: placeLines(element, index, fit.lines, fit.lineRtl, style),
    };
  },
  rect(el, index) {
    const r = clampRadius(el.radius, el.width, el.height);
    const t = Math.min(el.strokeWidth, el.width / 2, el.height / 2);
    return {
      kind: "rect",
      index,
      fill: el.fill ? { color: parseColor(el.fill), shape: { x: el.x, y: el.y, w: el.width, h: el.height, r } } : null,
      stroke:
        el.stroke && el.strokeWidth > 0 ? { color: parseColor(el.stroke), ring: ringOf(el.x, el.y, el.width, el.height, t, r) } : null,
    };
  },
  line(el, index) {
    return { kind: "line", index, x1: el.x1, y1: el.y1, x2: el.x2, y2: el.y2, thickness: el.thickness, color: parseColor(el.color) };
  },
  border(el, index, ctx) {
    return { kind: "border", index, color: parseColor(el.color), rings: borderRings(el, ctx.width, ctx.height) };
  },
  qr(el, index, ctx) {
    let code = null;
    if (ctx.url) {
      const { modules, runs } = qrRuns(ctx.url);
      const m = el.size / (modules + 2 * QR_QUIET_ZONE);
      code = { color: parseColor(el.color), x: el.x + QR_QUIET_ZONE * m, y: el.y + QR_QUIET_ZONE * m, moduleSize: m, runs };
    }
    return { kind: "qr", index, x: el.x, y: el.y, size: el.size, background: parseColor(el.background), code };
  },
  image(el, index, ctx) {
    const asset = getAsset(ctx.assets, el.asset);
    return asset
      ? { kind: "image", index, image: imageDrawing(asset, { x: el.x, y: el.y, w: el.width, h: el.height }, el.fit, el.opacity) }
      : null;
  },
};

function planElement(element: DesignElement, index: number, ctx: PlanContext): ElementPlan | null {
  return (planners[element.type] as (element: DesignElement, index: number, ctx: PlanContext) => ElementPlan | null)(element, index, ctx);
}

async function planDocument(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets,
  options: RenderOptions,
): Promise<DocumentLayout> {
  const fonts = options.fonts ?? defaultFontLibrary();
  const { width, height } = canvasSize(doc.canvas);
  const { texts, warnings } = substitutedTexts(doc, values);
  const unsupported = await firstUnsupportedText(doc, texts, fonts, options);
  if (unsupported) throw unsupported;

  const ctx: PlanContext = {
    doc,
    width,
    height,
    texts,
    url: values["credential.url"] ?? "",
    assets,
    fonts,
    faces: new Set(),
    warnings,
    overflows: [],
  };
  const elements: ElementPlan[] = [];
  doc.elements.forEach((element, index) => {
    if (options.only && !options.only.has(index)) return;
    const plan = planElement(element, index, ctx);
    if (plan) elements.push(plan);
  });
  const bg = doc.background.image;
  const bgAsset = bg ? getAsset(assets, bg.asset) : undefined;
  const background = {
    color: parseColor(doc.background.color),
    image: bg && bgAsset ? imageDrawing(bgAsset, { x: 0, y: 0, w: width, h: height }, bg.fit, bg.opacity) : null,
  };
  return { width, height, background, elements, locale: doc.locale, fonts, faces: ctx.faces, warnings, overflows: ctx.overflows };
}

/**
 * Substitutes attribute values and fits every text box (images are left out: no assets). Throws
 * `UnsupportedTextError` for characters no font covers unless `unsupportedText: "render"`.
 */
export function layoutDocument(doc: DesignDocument, values: AttributeValues, options: RenderOptions = {}): Promise<DocumentLayout> {
  return planDocument(doc, values, {}, options);
}

/** Layout plus text outlines; `svgOf`, `pngOf` and `pdfOf` draw it (render once, output twice). */
export async function prepareRender(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets = {},
  options: RenderOptions = {},
): Promise<PreparedRender> {
  const layout = await planDocument(doc, values, assets, options);
  const texts = layout.elements.filter((plan): plan is TextPlan => plan.kind === "text");
  outlineRuns(texts.flatMap((plan) => plan.runs));
  return { layout, lines: new Map(texts.filter((plan) => plan.runs.length > 0).map((plan) => [plan.index, plan.runs])) };
}
