// Renders a design document with attribute values to SVG, PNG or PDF.
//
// Pure: no file or network access here. Fonts come from a `FontLibrary` (the process-wide default
// unless one is passed in; it reads font files once, and CJK slices the first time a text needs
// them), and images come in as bytes in `assets`.
//
// Pipeline:
// 1. `layoutDocument` substitutes placeholders and fits every text box: font size and explicit
//    line breaks, measured with the very metrics satori uses (text-layout.ts), so what is planned
//    is what is drawn.
// 2. `prepareRender` gets each line's glyph outlines from satori (one pass over the lines not in
//    the process-wide outline cache) and places them itself.
// 3. `svgOf`/`renderSvg` draw shapes, QR modules, images and the text outlines as one plain SVG in
//    points (no fonts, clip paths or masks: cheap to rasterise); `pngOf`/`renderPng` rasterise it
//    with resvg straight at the requested width and encode with native zlib; `pdfOf`/`renderPdf`
//    draw the same geometry as PDF vectors on a page of the true paper size.
//
// Text with every placeholder empty is left out, label included: "Valid until [credential.expiryDate]"
// disappears for a credential that does not expire.
//
// Right-to-left text: satori lays text out left to right only and does not shape Arabic, so Hebrew
// or Arabic would print reversed and disconnected. Rather than issue a wrong credential, rendering
// throws `UnsupportedTextError` (code `rtl_text`) naming the characters and element. Characters no
// bundled font can draw (emoji, Thai, Devanagari, ...) throw the same error with code
// `missing_glyphs`, unless `unsupportedText: "render"` is passed (for editor previews), which draws
// what it can.
import { renderAsync, type ResvgRenderOptions } from "@resvg/resvg-js";
import { deflateSync } from "node:zlib";
import { PDFBool, PDFDocument, PDFName, PDFRawStream, PDFStream, PDFString, type PDFRef } from "pdf-lib";
import satori from "satori";
import {
  canvasSize,
  placeholdersIn,
  type DesignDocument,
  type DesignElement,
} from "./document";
import { isEmptyAttribute, substitute, type AttributeValues } from "./attributes";
import { defaultFontLibrary, missingInChain, type FontChain, type FontLibrary, type FontWeight, type LoadedFont } from "./fonts";
import { encodePng, unpremultiply } from "./png";
import { qrRuns, QR_QUIET_ZONE } from "./qr";
import { fitText } from "./text-layout";

export interface RenderAsset {
  mimeType: "image/png" | "image/jpeg";
  data: Uint8Array;
  /** Pixel size of the image. */
  width: number;
  height: number;
}
export type RenderAssets = ReadonlyMap<string, RenderAsset> | Readonly<Record<string, RenderAsset>>;

export interface RenderOptions {
  /** Fonts to render with; the process-wide `defaultFontLibrary()` when omitted. */
  fonts?: FontLibrary;
  /** `throw` (default) refuses text that cannot be drawn correctly; `render` draws it anyway (RTL still throws). */
  unsupportedText?: "throw" | "render";
}

export interface PdfMeta {
  /** Document title, e.g. "Advanced Data Analysis: Alex Morgan". */
  title: string;
  /** The issuing organization. */
  author: string;
  /** The group (course, achievement) name. */
  subject: string;
  /** The credential's wallet URL: stored as the keywords, and linked from QR codes. */
  url: string | null;
  /** Creator application name; defaults to "Credential Issuing Service". */
  creator?: string;
  /** Creation date; omitted for a byte-for-byte reproducible file. */
  createdAt?: Date;
}

export type UnsupportedTextCode = "rtl_text" | "missing_glyphs";

/** Text that cannot be rendered correctly (right-to-left scripts, or characters no font has). */
export class UnsupportedTextError extends Error {
  readonly code: UnsupportedTextCode;
  readonly characters: string[];
  readonly elementIndex: number;
  /** Attributes used by the element, to point at the value that brought the characters in. */
  readonly attributes: string[];
  constructor(code: UnsupportedTextCode, characters: string[], elementIndex: number, attributes: string[]) {
    const what =
      code === "rtl_text"
        ? "right-to-left text (Hebrew, Arabic, ...) is not supported by the renderer"
        : "no bundled font can draw these characters";
    const from = attributes.length ? ` (from ${attributes.map((a) => `[${a}]`).join(", ")})` : "";
    super(`${what}: ${characters.slice(0, 10).join(" ")}${from}`);
    this.name = "UnsupportedTextError";
    this.code = code;
    this.characters = characters;
    this.elementIndex = elementIndex;
    this.attributes = attributes;
  }
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const RTL_ALL = new RegExp(RTL.source, "gu");

/** Characters of a text in right-to-left scripts (empty when there are none). */
export function rtlCharacters(text: string): string[] {
  return [...new Set(text.match(RTL_ALL) ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Layout

/** Satori lays out in this many units per point: its integer rounding then costs at most 1/4 pt. */
const LAYOUT_SCALE = 2;

type Rgba = { r: number; g: number; b: number; a: number };

function parseColor(hex: string): Rgba {
  let h = hex.slice(1);
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
}


export interface TextPlan {
  kind: "text";
  index: number;
  element: Extract<DesignElement, { type: "text" }>;
  /** The text after substitution and uppercasing. */
  text: string;
  lines: string[];
  /** In points. */
  fontSize: number;
  lineBox: number;
  lineWidths: number[];
  /** False when the text was cut with an ellipsis because it could not fit even at minSize. */
  fits: boolean;
  chain: FontChain;
  /** The font library's id (outline cache key). */
  fontsId: number;
}

export type ElementPlan = TextPlan | { kind: "other"; index: number; element: Exclude<DesignElement, { type: "text" }> };

export interface DocumentLayout {
  doc: DesignDocument;
  width: number;
  height: number;
  elements: ElementPlan[];
  /** The wallet URL QR codes encode (empty string: QR codes draw only their background). */
  url: string;
  fonts: FontLibrary;
  /** Every font face the texts use (for satori's `fonts`). */
  faces: Set<LoadedFont>;
  /** Problems that did not stop rendering (texts cut short, characters drawn as boxes). */
  warnings: string[];
}

const CJK_IN_SCRIPT_SCALE = 0.8;
const CJK_CHARS = /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\u{20000}-\u{3134f}]/gu;

function mostlyCjk(text: string): boolean {
  const letters = text.replace(/[\s\p{P}\p{S}]/gu, "");
  return letters.length > 0 && (letters.match(CJK_CHARS)?.length ?? 0) * 2 >= [...letters].length;
}

/**
 * Characters (after attribute values are filled in) one rendering lays out in all. Fitting text costs
 * about 0.1 ms per character on the main thread, and attribute values are up to 10,000 characters
 * each, so without a bound one preview could hold the server for seconds. Real certificates draw a
 * few hundred; texts past the budget are cut with "…" and reported.
 */
export const RENDER_TEXT_BUDGET = 20_000;

/** Each text element's text after substitution (empty when left out), in a rendering's text budget. */
function substitutedTexts(doc: DesignDocument, values: AttributeValues): { texts: Map<number, string>; warnings: string[] } {
  const subst = { locale: doc.locale, dateStyle: doc.dateStyle };
  const warnings: string[] = [];
  const texts = new Map<number, string>();
  let budget = RENDER_TEXT_BUDGET;
  doc.elements.forEach((el, i) => {
    if (el.type !== "text") return;
    // A text whose every placeholder is empty is left out, label and all ("Valid until [expiry]").
    const names = placeholdersIn(el.text);
    if (names.length > 0 && names.every((name) => isEmptyAttribute(values, name))) {
      texts.set(i, "");
      return;
    }
    let text = substitute(el.text, values, subst).normalize("NFC");
    if (el.uppercase) text = text.toLocaleUpperCase(doc.locale);
    const characters = [...text];
    if (characters.length > budget) {
      text = `${characters.slice(0, budget).join("")}…`;
      warnings.push(`element ${i}: text cut short: a design draws at most ${RENDER_TEXT_BUDGET} characters in all`);
    }
    budget = Math.max(0, budget - characters.length);
    texts.set(i, text);
  });
  return { texts, warnings };
}

/** The first text the renderer cannot draw correctly, in element order: right-to-left first, then missing glyphs. */
async function firstUnsupportedText(
  doc: DesignDocument,
  texts: Map<number, string>,
  fonts: FontLibrary,
  options: RenderOptions,
): Promise<UnsupportedTextError | null> {
  for (const [i, text] of texts) {
    const rtl = rtlCharacters(text);
    if (rtl.length) return new UnsupportedTextError("rtl_text", rtl, i, placeholdersIn((doc.elements[i] as { text: string }).text));
  }
  await fonts.prepare(
    [...texts].map(([i, text]) => {
      const el = doc.elements[i] as Extract<DesignElement, { type: "text" }>;
      return { text, family: el.font.family, weight: el.font.weight as FontWeight, locale: doc.locale };
    }),
  );
  if (options.unsupportedText === "render") return null;
  for (const [i, text] of texts) {
    const el = doc.elements[i] as Extract<DesignElement, { type: "text" }>;
    const missing = missingInChain(fonts.chain({ text, family: el.font.family, weight: el.font.weight as FontWeight, locale: doc.locale }), text);
    if (missing.length) return new UnsupportedTextError("missing_glyphs", missing, i, placeholdersIn(el.text));
  }
  return null;
}

/**
 * Why this document with these values cannot be rendered (what `layoutDocument` would throw), or
 * null when it can. Cheap: no text is measured. The wallet uses it to show a stand-in, not a broken image.
 */
export async function unsupportedTextIn(doc: DesignDocument, values: AttributeValues, options: RenderOptions = {}): Promise<UnsupportedTextError | null> {
  return firstUnsupportedText(doc, substitutedTexts(doc, values).texts, options.fonts ?? defaultFontLibrary(), options);
}

/**
 * Substitutes attribute values and fits every text box. Throws `UnsupportedTextError` for
 * right-to-left text, and for characters no font covers unless `unsupportedText: "render"`.
 */
export async function layoutDocument(doc: DesignDocument, values: AttributeValues, options: RenderOptions = {}): Promise<DocumentLayout> {
  const fonts = options.fonts ?? defaultFontLibrary();
  const { width, height } = canvasSize(doc.canvas);
  const { texts, warnings } = substitutedTexts(doc, values);
  const unsupported = await firstUnsupportedText(doc, texts, fonts, options);
  if (unsupported) throw unsupported;

  const faces = new Set<LoadedFont>();
  const elements: ElementPlan[] = doc.elements.map((element, index) => {
    if (element.type !== "text") return { kind: "other", index, element };
    const text = texts.get(index)!;
    const chain = fonts.chain({ text, family: element.font.family, weight: element.font.weight as FontWeight, locale: doc.locale });
    const missing = missingInChain(chain, text);
    // Only in `unsupportedText: "render"` mode: otherwise firstUnsupportedText has thrown already.
    if (missing.length) warnings.push(`element ${index}: no font for ${missing.join(" ")}`);
    const k = LAYOUT_SCALE;
    // Great Vibes has a small x-height: CJK glyphs (full-em squares) drawn at the same size tower
    // over the Latin text the design was made with. Draw mostly-CJK texts in it at 80%.
    const adjust = element.font.family === "Great Vibes" && mostlyCjk(text) ? CJK_IN_SCRIPT_SCALE : 1;
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
    if (!fit.fits) warnings.push(`element ${index}: text does not fit its box and was shortened`);
    for (const f of chain.faces) faces.add(f);
    return {
      kind: "text",
      index,
      element,
      text,
      lines: fit.lines,
      fontSize: fit.fontSize / k,
      lineBox: fit.lineBox / k,
      lineWidths: fit.lineWidths.map((w) => w / k),
      fits: fit.fits,
      chain,
      fontsId: fonts.id,
    };
  });

  const url = values["credential.url"] ?? "";
  return { doc, width, height, elements, url, fonts, faces, warnings };
}

// ---------------------------------------------------------------------------------------------
// Text outlines: one satori pass over the texts only

function getAsset(assets: RenderAssets, name: string): RenderAsset | undefined {
  return assets instanceof Map ? assets.get(name) : (assets as Record<string, RenderAsset>)[name];
}

function clampRadius(r: number, w: number, h: number): number {
  return Math.max(0, Math.min(r, w / 2, h / 2));
}

type Node = { type: string; props: { style?: Record<string, unknown>; children?: unknown } };

/** Glyph outlines of one line of text, in layout units, origin at the top left of its line box. */
interface LineOutline {
  d: string;
  /** The same outline as a deflated PDF form body (points, y up, origin at the line box's top left). */
  pdf?: { bytes: Uint8Array; bbox: [number, number, number, number] };
}

/** One line of text placed on the canvas (points). */
export interface PlacedLine {
  /** Index of the text element in the document. */
  index: number;
  outline: LineOutline;
  x: number;
  y: number;
}

/**
 * Outlines of lines already drawn, keyed by font, size, spacing and text. Fixed texts ("This is to
 * certify that", labels, the group and organization names of a batch) are drawn by satori once per
 * process; only the new lines of each render (usually the recipient's name and the credential id)
 * go through satori. Bounded by total path length.
 */
const outlineCache = new Map<string, LineOutline>();
let outlineCacheChars = 0;
const OUTLINE_CACHE_CHARS = 8 * 1024 * 1024;

function cacheOutline(key: string, outline: LineOutline) {
  outlineCache.set(key, outline);
  outlineCacheChars += key.length + outline.d.length;
  for (const [oldKey, old] of outlineCache) {
    if (outlineCacheChars <= OUTLINE_CACHE_CHARS) break;
    outlineCache.delete(oldKey);
    outlineCacheChars -= oldKey.length + old.d.length;
  }
}

function lineKey(plan: TextPlan, line: string): string {
  const el = plan.element;
  const k = LAYOUT_SCALE;
  return `${plan.fontsId}|${plan.chain.names.join(",")}|${el.font.weight}|${plan.fontSize * k}|${el.font.letterSpacing * k}|${plan.lineBox * k}|${line}`;
}

function lineNode(plan: TextPlan, line: string, color: string, k: number): Node {
  const el = plan.element;
  return {
    type: "div",
    props: {
      style: {
        position: "absolute",
        left: 0,
        top: 0,
        display: "flex",
        height: plan.lineBox * k,
        fontFamily: plan.chain.names.join(", "),
        fontWeight: el.font.weight,
        fontSize: plan.fontSize * k,
        letterSpacing: el.font.letterSpacing * k,
        lineHeight: `${plan.lineBox * k}px`,
        color,
        whiteSpace: "nowrap",
      },
      children: line,
    },
  };
}

/**
 * Places every text line and fetches its glyph outlines: cached ones from the outline cache, the
 * rest from a single satori pass that draws only those lines, each in a unique colour so its path
 * can be told apart. Shapes, images and QR codes never go through satori: its clip paths and masks
 * are slow to rasterise, and drawing them directly lets SVG and PDF share one geometry.
 */
async function textOutlines(layout: DocumentLayout): Promise<Map<number, PlacedLine[]>> {
  const k = LAYOUT_SCALE;
  const placed: PlacedLine[] = [];
  const missing = new Map<string, { plan: TextPlan; line: string; color: string; waiting: PlacedLine[] }>();
  for (const plan of layout.elements) {
    if (plan.kind !== "text" || plan.lines.length === 0) continue;
    const el = plan.element;
    const ls = el.font.letterSpacing;
    const block = plan.lines.length * plan.lineBox;
    const top = el.y + (el.verticalAlign === "middle" ? (el.height - block) / 2 : el.verticalAlign === "bottom" ? el.height - block : 0);
    plan.lines.forEach((line, i) => {
      if (!line) return;
      // Satori, like CSS, counts letter spacing after the last glyph too: leave it out when
      // centring or right-aligning, so the visible glyphs sit where the alignment says.
      const w = plan.lineWidths[i]! - ls;
      const x = el.x + (el.align === "center" ? (el.width - w) / 2 : el.align === "right" ? el.width - w : 0);
      const key = lineKey(plan, line);
      const hit = outlineCache.get(key);
      const p: PlacedLine = { index: plan.index, outline: hit ?? { d: "" }, x, y: top + i * plan.lineBox };
      placed.push(p);
      if (hit) {
        // Refresh its place in the eviction order.
        outlineCache.delete(key);
        outlineCache.set(key, hit);
        return;
      }
      let entry = missing.get(key);
      if (!entry) {
        entry = { plan, line, color: `#${(missing.size + 1).toString(16).padStart(6, "0")}`, waiting: [] };
        missing.set(key, entry);
      }
      entry.waiting.push(p);
    });
  }
  const byElement = new Map<number, PlacedLine[]>();
  for (const p of placed) byElement.set(p.index, [...(byElement.get(p.index) ?? []), p]);
  if (missing.size === 0) return byElement;

  const entries = [...missing.entries()];
  const width = Math.ceil(Math.max(...entries.map(([, e]) => (e.plan.lineWidths[e.plan.lines.indexOf(e.line)] ?? 0) + 8)) * k);
  const height = Math.ceil(Math.max(...entries.map(([, e]) => e.plan.lineBox)) * k) + 1;
  const svg = await satori(
    {
      type: "div",
      props: {
        style: { display: "flex", position: "relative", width, height },
        children: entries.map(([, e]) => lineNode(e.plan, e.line, e.color, k)),
      },
    } as unknown as Parameters<typeof satori>[0],
    { width, height, fonts: layout.fonts.satoriFonts(layout.faces) },
  );
  const byColor = new Map(entries.map(([key, e]) => [e.color, { key, e, d: [] as string[] }]));
  for (const m of svg.matchAll(/<path\b([^>]*)\/?>/g)) {
    const attrs = m[1]!;
    const fill = /\bfill="([^"]+)"/.exec(attrs)?.[1];
    const d = /\bd="([^"]+)"/.exec(attrs)?.[1];
    if (fill && d) byColor.get(normalizeFill(fill))?.d.push(d);
  }
  for (const { key, e, d } of byColor.values()) {
    const outline: LineOutline = { d: d.join(" ") };
    for (const p of e.waiting) p.outline = outline;
    cacheOutline(key, outline);
  }
  return byElement;
}

function normalizeFill(fill: string): string {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(fill);
  if (m) return `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("")}`;
  return fill.toLowerCase();
}

/** A laid-out document with its text outlines: everything needed to draw it, in any format. */
export interface PreparedRender {
  layout: DocumentLayout;
  /** Text lines by element index, placed, with their glyph outlines. */
  lines: Map<number, PlacedLine[]>;
  assets: RenderAssets;
}

/** Layout plus text outlines; `svgOf`, `pngOf` and `pdfOf` draw it (render once, output twice). */
export async function prepareRender(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets = {},
  options: RenderOptions = {},
): Promise<PreparedRender> {
  const layout = await layoutDocument(doc, values, options);
  return { layout, lines: await textOutlines(layout), assets };
}

// ---------------------------------------------------------------------------------------------
// SVG and PNG

/** The rings a border element draws: one for solid, two (each a third of the thickness) for double. */
function borderRings(
  el: Extract<DesignElement, { type: "border" }>,
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number; t: number; r: number }[] {
  const i = el.inset;
  const w = width - 2 * i;
  const h = height - 2 * i;
  if (w <= 0 || h <= 0) return [];
  const r = clampRadius(el.radius, w, h);
  if (el.style === "solid") return [{ x: i, y: i, w, h, t: Math.min(el.thickness, w / 2, h / 2), r }];
  const t = el.thickness / 3;
  const inner = 2 * t;
  const rings = [{ x: i, y: i, w, h, t, r }];
  if (w - 2 * inner > 0 && h - 2 * inner > 0) {
    rings.push({ x: i + inner, y: i + inner, w: w - 2 * inner, h: h - 2 * inner, t, r: Math.max(0, r - inner) });
  }
  return rings;
}

const dataUris = new WeakMap<Uint8Array, string>();
function assetDataUri(asset: RenderAsset): string {
  let uri = dataUris.get(asset.data);
  if (!uri) {
    uri = `data:${asset.mimeType};base64,${Buffer.from(asset.data.buffer, asset.data.byteOffset, asset.data.byteLength).toString("base64")}`;
    dataUris.set(asset.data, uri);
  }
  return uri;
}

const f2 = (v: number) => String(Math.round(v * 100) / 100);

function svgPaint(hex: string, attr: "fill" | "stroke"): string {
  const { r, g, b, a } = parseColor(hex);
  return `${attr}="rgb(${r},${g},${b})"${a < 1 ? ` ${attr}-opacity="${+a.toFixed(3)}"` : ""}`;
}

/** SVG path data of a rectangle with rounded corners (arcs). */
function roundedRectPath(x: number, y: number, w: number, h: number, r: number): string {
  if (r <= 0) return `M${f2(x)} ${f2(y)}h${f2(w)}v${f2(h)}h${f2(-w)}z`;
  return (
    `M${f2(x + r)} ${f2(y)}h${f2(w - 2 * r)}a${f2(r)} ${f2(r)} 0 0 1 ${f2(r)} ${f2(r)}v${f2(h - 2 * r)}` +
    `a${f2(r)} ${f2(r)} 0 0 1 ${f2(-r)} ${f2(r)}h${f2(-(w - 2 * r))}a${f2(r)} ${f2(r)} 0 0 1 ${f2(-r)} ${f2(-r)}` +
    `v${f2(-(h - 2 * r))}a${f2(r)} ${f2(r)} 0 0 1 ${f2(r)} ${f2(-r)}z`
  );
}

/** A CSS-style border band of width t inside a box, as an even-odd path. */
function ringPath(x: number, y: number, w: number, h: number, t: number, r: number): string {
  let d = roundedRectPath(x, y, w, h, r);
  if (w - 2 * t > 0 && h - 2 * t > 0) d += roundedRectPath(x + t, y + t, w - 2 * t, h - 2 * t, Math.max(0, r - t));
  return d;
}

function svgImage(asset: RenderAsset, x: number, y: number, w: number, h: number, fit: "contain" | "cover", opacity: number): string {
  return (
    `<image x="${f2(x)}" y="${f2(y)}" width="${f2(w)}" height="${f2(h)}" preserveAspectRatio="xMidYMid ${fit === "cover" ? "slice" : "meet"}"` +
    `${opacity < 1 ? ` opacity="${opacity}"` : ""} href="${assetDataUri(asset)}"/>`
  );
}

/**
 * The prepared design as an SVG document in points (viewBox = canvas size), `widthPx` wide when
 * given. Text is glyph outlines, so the SVG needs no fonts.
 */
export function svgOf(prepared: PreparedRender, widthPx?: number): string {
  const { layout, lines, assets } = prepared;
  const { doc, width: W, height: H } = layout;
  const k = LAYOUT_SCALE;
  const out: string[] = [];
  const w = widthPx ?? W;
  const h = Math.round(((w * H) / W) * 100) / 100;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${W} ${H}">`,
    `<rect width="${W}" height="${H}" ${svgPaint(doc.background.color, "fill")}/>`,
  );
  const bg = doc.background.image ? getAsset(assets, doc.background.image.asset) : undefined;
  if (bg && doc.background.image) out.push(svgImage(bg, 0, 0, W, H, doc.background.image.fit, doc.background.image.opacity));
  for (const plan of layout.elements) {
    if (plan.kind === "text") {
      const placed = (lines.get(plan.index) ?? []).filter((p) => p.outline.d);
      if (placed.length) {
        out.push(`<g ${svgPaint(plan.element.font.color, "fill")}>`);
        for (const p of placed) out.push(`<path transform="translate(${f2(p.x)} ${f2(p.y)}) scale(${1 / k})" d="${p.outline.d}"/>`);
        out.push("</g>");
      }
      continue;
    }
    const el = plan.element;
    switch (el.type) {
      case "rect": {
        const r = clampRadius(el.radius, el.width, el.height);
        if (el.fill) out.push(`<path ${svgPaint(el.fill, "fill")} d="${roundedRectPath(el.x, el.y, el.width, el.height, r)}"/>`);
        if (el.stroke && el.strokeWidth > 0) {
          const t = Math.min(el.strokeWidth, el.width / 2, el.height / 2);
          out.push(`<path fill-rule="evenodd" ${svgPaint(el.stroke, "fill")} d="${ringPath(el.x, el.y, el.width, el.height, t, r)}"/>`);
        }
        break;
      }
      case "line":
        out.push(
          `<line x1="${el.x1}" y1="${el.y1}" x2="${el.x2}" y2="${el.y2}" stroke-width="${el.thickness}" ${svgPaint(el.color, "stroke")}/>`,
        );
        break;
      case "border": {
        const d = borderRings(el, W, H)
          .map((g) => ringPath(g.x, g.y, g.w, g.h, g.t, g.r))
          .join("");
        if (d) out.push(`<path fill-rule="evenodd" ${svgPaint(el.color, "fill")} d="${d}"/>`);
        break;
      }
      case "qr": {
        out.push(`<rect x="${el.x}" y="${el.y}" width="${el.size}" height="${el.size}" ${svgPaint(el.background, "fill")}/>`);
        if (!layout.url) break;
        const { modules, runs } = qrRuns(layout.url);
        const m = el.size / (modules + 2 * QR_QUIET_ZONE);
        const d = runs.map(([x, y, n]) => `M${x} ${y}h${n}v1h${-n}z`).join("");
        out.push(
          `<path shape-rendering="crispEdges" transform="translate(${f2(el.x + QR_QUIET_ZONE * m)} ${f2(el.y + QR_QUIET_ZONE * m)}) scale(${m})" ` +
            `${svgPaint(el.color, "fill")} d="${d}"/>`,
        );
        break;
      }
      case "image": {
        const asset = getAsset(assets, el.asset);
        if (asset) out.push(svgImage(asset, el.x, el.y, el.width, el.height, el.fit, el.opacity));
        break;
      }
    }
  }
  out.push("</svg>");
  return out.join("");
}

/** The design as an SVG string (see `svgOf`). */
export async function renderSvg(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets = {},
  options: RenderOptions & { widthPx?: number } = {},
): Promise<string> {
  return svgOf(await prepareRender(doc, values, assets, options), options.widthPx);
}

/**
 * zlib level for PNGs. Measured at 1600 px: level 3 deflates in 8-10 ms to ~100 KB (certificate),
 * level 6 takes 19-32 ms for ~60 KB, resvg's own encoder 27-45 ms for ~90 KB. Pass 6-9 for
 * PNGs that are stored for long and served often.
 */
export const DEFAULT_PNG_COMPRESSION = 3;

/** PNG widths accepted: above ~5000 px a badge is 100 MB of pixels. */
export const MIN_WIDTH_PX = 16;
export const MAX_WIDTH_PX = 5000;

const RESVG_BASE: ResvgRenderOptions = {
  font: { loadSystemFonts: false },
  shapeRendering: 2,
  imageRendering: 0,
  logLevel: "off",
};

/**
 * Rasterises an SVG at `widthPx` wide: resvg renders on libuv's thread pool, then the pixels are
 * PNG-encoded with native zlib (also off the main thread), faster than resvg's own encoder.
 */
export async function rasterize(
  svg: string,
  widthPx: number,
  compression = DEFAULT_PNG_COMPRESSION,
  opaque = false,
): Promise<{ png: Uint8Array; width: number; height: number }> {
  if (!Number.isFinite(widthPx) || widthPx < MIN_WIDTH_PX || widthPx > MAX_WIDTH_PX) {
    throw new RangeError(`widthPx must be ${MIN_WIDTH_PX} to ${MAX_WIDTH_PX}`);
  }
  const img = await renderAsync(svg, { ...RESVG_BASE, fitTo: { mode: "width", value: Math.round(widthPx) } });
  const pixels = img.pixels;
  // An opaque background makes every pixel opaque: nothing to un-premultiply.
  if (!opaque) unpremultiply(pixels);
  return { png: await encodePng(pixels, img.width, img.height, compression), width: img.width, height: img.height };
}

/** The prepared design as a PNG `widthPx` wide (default 1600). */
export async function pngOf(prepared: PreparedRender, widthPx = 1600, compression = DEFAULT_PNG_COMPRESSION): Promise<Uint8Array> {
  const opaque = parseColor(prepared.layout.doc.background.color).a >= 1;
  return (await rasterize(svgOf(prepared), widthPx, compression, opaque)).png;
}

/** The design as a PNG `widthPx` wide (default 1600), height from the canvas's aspect ratio. */
export async function renderPng(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets = {},
  options: RenderOptions & { widthPx?: number; compression?: number } = {},
): Promise<Uint8Array> {
  return pngOf(await prepareRender(doc, values, assets, options), options.widthPx ?? 1600, options.compression);
}

// ---------------------------------------------------------------------------------------------
// PDF: vector drawing on a page of the canvas's size in points.

const n2 = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? "0" : String(r);
};

/** A PDF content stream under construction (coordinates converted from top-left points). */
class Content {
  parts: string[] = [];
  constructor(private readonly pageHeight: number) {}
  y(v: number) {
    return this.pageHeight - v;
  }
  op(s: string) {
    this.parts.push(s);
  }
  fillColor({ r, g, b }: Rgba) {
    this.op(`${n2(r / 255)} ${n2(g / 255)} ${n2(b / 255)} rg`);
  }
  strokeColor({ r, g, b }: Rgba) {
    this.op(`${n2(r / 255)} ${n2(g / 255)} ${n2(b / 255)} RG`);
  }
  /** A rectangle (top-left origin) with optional rounded corners, as a path. */
  roundedRect(x: number, y: number, w: number, h: number, r: number) {
    if (r <= 0) {
      this.op(`${n2(x)} ${n2(this.y(y + h))} ${n2(w)} ${n2(h)} re`);
      return;
    }
    const c = r * 0.5522847498;
    const X = (v: number) => n2(v);
    const Y = (v: number) => n2(this.y(v));
    this.op(
      `${X(x + r)} ${Y(y)} m ${X(x + w - r)} ${Y(y)} l ` +
        `${X(x + w - r + c)} ${Y(y)} ${X(x + w)} ${Y(y + r - c)} ${X(x + w)} ${Y(y + r)} c ` +
        `${X(x + w)} ${Y(y + h - r)} l ` +
        `${X(x + w)} ${Y(y + h - r + c)} ${X(x + w - r + c)} ${Y(y + h)} ${X(x + w - r)} ${Y(y + h)} c ` +
        `${X(x + r)} ${Y(y + h)} l ` +
        `${X(x + r - c)} ${Y(y + h)} ${X(x)} ${Y(y + h - r + c)} ${X(x)} ${Y(y + h - r)} c ` +
        `${X(x)} ${Y(y + r)} l ` +
        `${X(x)} ${Y(y + r - c)} ${X(x + r - c)} ${Y(y)} ${X(x + r)} ${Y(y)} c h`,
    );
  }
  /** A CSS-style border: a band of width t inside the box, as an even-odd filled ring. */
  ring(x: number, y: number, w: number, h: number, t: number, r: number) {
    this.roundedRect(x, y, w, h, r);
    if (w - 2 * t > 0 && h - 2 * t > 0) this.roundedRect(x + t, y + t, w - 2 * t, h - 2 * t, Math.max(0, r - t));
    this.op("f*");
  }
}

/** Converts satori's glyph outline path data (absolute M/L/Q/C/Z in layout units, y down) to PDF path operators in points, y up. */
function svgPathToPdf(d: string, k: number): { ops: string; bbox: [number, number, number, number] } {
  const tokens = d.match(/[MLQCZmlqcz]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const out: string[] = [];
  let i = 0;
  let cmd = "";
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  const num = () => Number(tokens[i++]);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const X = (v: number) => {
    const x = v / k;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    return n2(x);
  };
  const Y = (v: number) => {
    const y = -v / k;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    return n2(y);
  };
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (/[A-Za-z]/.test(t)) {
      cmd = t;
      i++;
      if (cmd === "Z" || cmd === "z") {
        out.push("h");
        cx = sx;
        cy = sy;
        continue;
      }
    }
    switch (cmd) {
      case "M": {
        cx = sx = num();
        cy = sy = num();
        out.push(`${X(cx)} ${Y(cy)} m`);
        cmd = "L";
        break;
      }
      case "L": {
        cx = num();
        cy = num();
        out.push(`${X(cx)} ${Y(cy)} l`);
        break;
      }
      case "Q": {
        const qx = num();
        const qy = num();
        const x = num();
        const y = num();
        const c1x = cx + (2 / 3) * (qx - cx);
        const c1y = cy + (2 / 3) * (qy - cy);
        const c2x = x + (2 / 3) * (qx - x);
        const c2y = y + (2 / 3) * (qy - y);
        out.push(`${X(c1x)} ${Y(c1y)} ${X(c2x)} ${Y(c2y)} ${X(x)} ${Y(y)} c`);
        cx = x;
        cy = y;
        break;
      }
      case "C": {
        const a = [num(), num(), num(), num(), num(), num()];
        out.push(`${X(a[0]!)} ${Y(a[1]!)} ${X(a[2]!)} ${Y(a[3]!)} ${X(a[4]!)} ${Y(a[5]!)} c`);
        cx = a[4]!;
        cy = a[5]!;
        break;
      }
      default:
        // Relative commands never appear in satori's output; skip anything unexpected.
        i++;
    }
  }
  // Control points bound the curves, so this box (plus a hair) holds the whole outline.
  const bbox: [number, number, number, number] =
    minX === Infinity ? [0, 0, 0, 0] : [Math.floor(minX - 1), Math.floor(minY - 1), Math.ceil(maxX + 1), Math.ceil(maxY + 1)];
  return { ops: out.join(" "), bbox };
}

/**
 * A text line's outline as a deflated PDF form XObject body, made once per outline and kept with
 * it in the outline cache: a PDF then only compresses the lines new to the process.
 */
function pdfForm(outline: LineOutline): { bytes: Uint8Array; bbox: [number, number, number, number] } {
  if (!outline.pdf) {
    const { ops, bbox } = svgPathToPdf(outline.d, LAYOUT_SCALE);
    outline.pdf = { bytes: deflateSync(Buffer.from(`${ops} f`, "latin1"), { level: 6 }), bbox };
  }
  return outline.pdf;
}

type PdfImage = { width: number; height: number; rgb: Uint8Array; alpha: Uint8Array | null };

const decodedPngs = new WeakMap<Uint8Array, Promise<PdfImage>>();

/** PNG pixels for the PDF, decoded natively by resvg (pdf-lib's embedPng decodes in JavaScript: slow). */
function decodePng(asset: RenderAsset): Promise<PdfImage> {
  let p = decodedPngs.get(asset.data);
  if (!p) {
    p = (async () => {
      const { width, height } = asset;
      const svg =
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<image width="${width}" height="${height}" href="${assetDataUri(asset)}"/></svg>`;
      const img = await renderAsync(svg, { ...RESVG_BASE, imageRendering: 1 });
      const px = img.pixels;
      const count = img.width * img.height;
      const rgb = Buffer.allocUnsafe(count * 3);
      const alpha = Buffer.allocUnsafe(count);
      let opaque = true;
      for (let i = 0, j = 0; i < count; i++, j += 4) {
        const a = px[j + 3]!;
        alpha[i] = a;
        if (a === 255) {
          rgb[i * 3] = px[j]!;
          rgb[i * 3 + 1] = px[j + 1]!;
          rgb[i * 3 + 2] = px[j + 2]!;
        } else {
          opaque = false;
          // resvg's pixels are premultiplied; PDF wants straight colour with a soft mask.
          const f = a === 0 ? 0 : 255 / a;
          rgb[i * 3] = Math.min(255, Math.round(px[j]! * f));
          rgb[i * 3 + 1] = Math.min(255, Math.round(px[j + 1]! * f));
          rgb[i * 3 + 2] = Math.min(255, Math.round(px[j + 2]! * f));
        }
      }
      return {
        width: img.width,
        height: img.height,
        rgb: deflateSync(rgb, { level: 6 }),
        alpha: opaque ? null : deflateSync(alpha, { level: 6 }),
      };
    })();
    decodedPngs.set(asset.data, p);
    p.catch(() => decodedPngs.delete(asset.data));
  }
  return p;
}

/** The drawn rectangle of an image of `iw`x`ih` pixels fitted into a box. */
function fitImage(iw: number, ih: number, x: number, y: number, w: number, h: number, fit: "contain" | "cover") {
  const s = fit === "cover" ? Math.max(w / iw, h / ih) : Math.min(w / iw, h / ih);
  const dw = iw * s;
  const dh = ih * s;
  return { x: x + (w - dw) / 2, y: y + (h - dh) / 2, w: dw, h: dh };
}

/**
 * The design as a one-page vector PDF of the canvas's true size in points, with title, author
 * (organization), subject (group), keywords (the credential URL) and a link from each QR code to
 * the URL. Text is drawn as glyph outlines (identical to the PNG; not selectable).
 */
export async function pdfOf(prepared: PreparedRender, meta: PdfMeta): Promise<Uint8Array> {
  const { layout, lines, assets } = prepared;
  const { doc } = layout;
  const { width: W, height: H } = layout;

  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(meta.title, { showInWindowTitleBar: true });
  pdf.setAuthor(meta.author);
  pdf.setSubject(meta.subject);
  if (meta.url) pdf.setKeywords([meta.url]);
  pdf.setCreator(meta.creator ?? "Credential Issuing Service");
  pdf.setProducer("Credential Issuing Service (pdf-lib)");
  if (meta.createdAt) {
    pdf.setCreationDate(meta.createdAt);
    pdf.setModificationDate(meta.createdAt);
  }
  const page = pdf.addPage([W, H]);
  const ctx = pdf.context;
  const c = new Content(H);

  const gsNames = new Map<number, string>();
  const alpha = (a: number) => {
    if (a >= 1) return;
    const key = Math.round(a * 1000) / 1000;
    let name = gsNames.get(key);
    if (!name) {
      name = page.node.newExtGState("GS", ctx.obj({ Type: "ExtGState", ca: key, CA: key })).asString();
      gsNames.set(key, name);
    }
    c.op(`${name} gs`);
  };
  const formNames = new Map<LineOutline, string>();
  const imageNames = new Map<Uint8Array, string>();
  const imageName = async (asset: RenderAsset): Promise<{ name: string; width: number; height: number } | null> => {
    let name = imageNames.get(asset.data);
    if (!name) {
      let ref: PDFRef;
      if (asset.mimeType === "image/jpeg") {
        // pdf-lib passes JPEG bytes through (DCTDecode) after reading the header: cheap.
        const image = await pdf.embedJpg(asset.data);
        await image.embed();
        ref = image.ref;
        const stream = ctx.lookup(ref);
        if (stream instanceof PDFStream) stream.dict.set(PDFName.of("Interpolate"), PDFBool.True);
      } else {
        const img = await decodePng(asset);
        // Smooth when scaled, as the PNG (resvg) does.
        const base = { Type: "XObject", Subtype: "Image", Width: img.width, Height: img.height, BitsPerComponent: 8, Filter: "FlateDecode", Interpolate: true };
        let smask: PDFRef | undefined;
        if (img.alpha) smask = ctx.register(PDFRawStream.of(ctx.obj({ ...base, ColorSpace: "DeviceGray" }), img.alpha));
        ref = ctx.register(PDFRawStream.of(ctx.obj({ ...base, ColorSpace: "DeviceRGB", ...(smask ? { SMask: smask } : {}) }), img.rgb));
      }
      name = page.node.newXObject("Im", ref).asString();
      imageNames.set(asset.data, name);
    }
    return { name, width: asset.width, height: asset.height };
  };
  const drawImage = async (asset: RenderAsset, x: number, y: number, w: number, h: number, fit: "contain" | "cover", opacity: number) => {
    const im = await imageName(asset);
    if (!im) return;
    const r = fitImage(im.width, im.height, x, y, w, h, fit);
    c.op("q");
    alpha(opacity);
    if (fit === "cover") c.op(`${n2(x)} ${n2(c.y(y + h))} ${n2(w)} ${n2(h)} re W n`);
    c.op(`${n2(r.w)} 0 0 ${n2(r.h)} ${n2(r.x)} ${n2(c.y(r.y + r.h))} cm ${im.name} Do Q`);
  };

  // Background.
  const bg = parseColor(doc.background.color);
  if (bg.a > 0) {
    c.op("q");
    alpha(bg.a);
    c.fillColor(bg);
    c.op(`0 0 ${n2(W)} ${n2(H)} re f Q`);
  }
  const bgImage = doc.background.image ? getAsset(assets, doc.background.image.asset) : undefined;
  if (bgImage && doc.background.image) {
    await drawImage(bgImage, 0, 0, W, H, doc.background.image.fit, doc.background.image.opacity);
  }
  c.op(`0 0 ${n2(W)} ${n2(H)} re W n`);

  const links: [number, number, number, number][] = [];
  for (const plan of layout.elements) {
    if (plan.kind === "text") {
      const color = parseColor(plan.element.font.color);
      const placed = (lines.get(plan.index) ?? []).filter((p) => p.outline.d);
      if (!placed.length) continue;
      c.op("q");
      alpha(color.a);
      c.fillColor(color);
      for (const p of placed) {
        let name = formNames.get(p.outline);
        if (!name) {
          const form = pdfForm(p.outline);
          const ref = ctx.register(
            PDFRawStream.of(ctx.obj({ Type: "XObject", Subtype: "Form", BBox: form.bbox, Filter: "FlateDecode" }), form.bytes),
          );
          name = page.node.newXObject("Tx", ref).asString();
          formNames.set(p.outline, name);
        }
        // The form inherits the fill colour set above.
        c.op(`q 1 0 0 1 ${n2(p.x)} ${n2(c.y(p.y))} cm ${name} Do Q`);
      }
      c.op("Q");
      continue;
    }
    const el = plan.element;
    switch (el.type) {
      case "rect": {
        const r = clampRadius(el.radius, el.width, el.height);
        if (el.fill) {
          const f = parseColor(el.fill);
          c.op("q");
          alpha(f.a);
          c.fillColor(f);
          c.roundedRect(el.x, el.y, el.width, el.height, r);
          c.op("f Q");
        }
        if (el.stroke && el.strokeWidth > 0) {
          const s = parseColor(el.stroke);
          c.op("q");
          alpha(s.a);
          c.fillColor(s);
          c.ring(el.x, el.y, el.width, el.height, Math.min(el.strokeWidth, el.width / 2, el.height / 2), r);
          c.op("Q");
        }
        break;
      }
      case "line": {
        const s = parseColor(el.color);
        c.op("q");
        alpha(s.a);
        c.strokeColor(s);
        c.op(`${n2(el.thickness)} w 0 J ${n2(el.x1)} ${n2(c.y(el.y1))} m ${n2(el.x2)} ${n2(c.y(el.y2))} l S Q`);
        break;
      }
      case "border": {
        const s = parseColor(el.color);
        c.op("q");
        alpha(s.a);
        c.fillColor(s);
        for (const ring of borderRings(el, W, H)) c.ring(ring.x, ring.y, ring.w, ring.h, ring.t, ring.r);
        c.op("Q");
        break;
      }
      case "qr": {
        const b = parseColor(el.background);
        c.op("q");
        alpha(b.a);
        c.fillColor(b);
        c.op(`${n2(el.x)} ${n2(c.y(el.y + el.size))} ${n2(el.size)} ${n2(el.size)} re f Q`);
        if (!layout.url) break;
        const { modules, runs } = qrRuns(layout.url);
        const m = el.size / (modules + 2 * QR_QUIET_ZONE);
        const fg = parseColor(el.color);
        c.op("q");
        alpha(fg.a);
        c.fillColor(fg);
        // Modules in their own unit grid: exact squares that abut without hairline gaps.
        c.op(`${n2(m)} 0 0 ${n2(-m)} ${n2(el.x + QR_QUIET_ZONE * m)} ${n2(c.y(el.y + QR_QUIET_ZONE * m))} cm`);
        c.op(runs.map(([x, y, w]) => `${x} ${y} ${w} 1 re`).join(" ") + " f Q");
        links.push([el.x, el.y, el.size, el.size]);
        break;
      }
      case "image": {
        const asset = getAsset(assets, el.asset);
        if (asset) await drawImage(asset, el.x, el.y, el.width, el.height, el.fit, el.opacity);
        break;
      }
    }
  }

  const content = deflateSync(Buffer.from(c.parts.join("\n"), "latin1"), { level: 6 });
  page.node.set(PDFName.of("Contents"), ctx.register(PDFRawStream.of(ctx.obj({ Filter: "FlateDecode" }), content)));

  if (meta.url) {
    for (const [x, y, w, h] of links) {
      const annot = ctx.obj({
        Type: "Annot",
        Subtype: "Link",
        Rect: [x, H - y - h, x + w, H - y],
        Border: [0, 0, 0],
        A: { Type: "Action", S: "URI", URI: PDFString.of(meta.url) },
      });
      page.node.addAnnot(ctx.register(annot));
    }
  }
  return pdf.save({ useObjectStreams: true });
}

/** The design as a one-page vector PDF (see `pdfOf`). */
export async function renderPdf(
  doc: DesignDocument,
  values: AttributeValues,
  assets: RenderAssets = {},
  meta: PdfMeta,
  options: RenderOptions = {},
): Promise<Uint8Array> {
  return pdfOf(await prepareRender(doc, values, assets, options), meta);
}

/**
 * Prepares the renderer so the first real render is not slow: compiles satori's layout engine
 * (WebAssembly), parses every base font face once and warms resvg. Optional; call at server start.
 */
export async function warmUpRenderer(options: RenderOptions = {}): Promise<void> {
  const families = ["Inter", "Noto Serif", "Great Vibes"] as const;
  const elements = families.flatMap((family, i) =>
    ([400, 700] as const).map((weight, j) => ({
      type: "text" as const,
      x: 10,
      y: 10 + (i * 2 + j) * 30,
      width: 400,
      height: 28,
      text: "Warm up: Zoë Ångström-Núñez",
      font: { family, weight, size: 14, color: "#111111", letterSpacing: 0, lineHeight: 1.2 },
      align: "left" as const,
      verticalAlign: "top" as const,
      uppercase: false,
      shrinkToFit: true,
      minSize: 8,
      maxLines: 1,
    })),
  );
  const doc: DesignDocument = {
    version: 1,
    canvas: { size: "square", orientation: "landscape" },
    locale: "en-US",
    dateStyle: "long",
    background: { color: "#ffffff", image: null },
    elements,
  };
  await pngOf(await prepareRender(doc, {}, {}, options), 64);
}
