// Renders a design document with attribute values to SVG, PNG or PDF: the renderer's front door.
//
// Pure: no file or network access. Fonts come from a `FontLibrary` (the process-wide default unless
// one is passed in; it reads font files once, and CJK slices the first time a text needs them), and
// images come in as bytes in `assets`.
//
// Pipeline (README.md has the map of modules):
// 1. `prepareRender` (prepare.ts) walks the document once: texts substituted and checked
//    (text-content.ts), fitted (text-layout.ts) and placed, every other element turned into plain
//    geometry; then all text runs get their glyph outlines in one pass (glyph-outlines.ts).
// 2. A painter writes the prepared document out: `svgOf` (svg-painter.ts) as one plain SVG in points,
//    which `pngOf` rasterises with resvg straight at the requested width (raster.ts); `pdfOf`
//    (pdf-painter.ts) as PDF vectors on a page of the true paper size.
import type { AttributeValues } from "./attributes";
import type { RenderAssets } from "./assets";
import type { DesignDocument } from "./document";
import { pdfOf, type PdfMeta } from "./pdf-painter";
import { prepareRender } from "./prepare";
import type { PreparedRender } from "./prepared";
import { DEFAULT_PNG_COMPRESSION, rasterize } from "./raster";
import { svgOf } from "./svg-painter";
import type { RenderOptions } from "./text-content";

export type { RenderAsset, RenderAssets } from "./assets";
export { pdfOf, type PdfMeta } from "./pdf-painter";
export { layoutDocument, overflowWarning, prepareRender } from "./prepare";
export type { DocumentLayout, ElementPlan, PreparedRender, TextPlan } from "./prepared";
export { DEFAULT_PNG_COMPRESSION, MAX_WIDTH_PX, MIN_WIDTH_PX, rasterize } from "./raster";
export { svgOf } from "./svg-painter";
export { RENDER_TEXT_BUDGET, UnsupportedTextError, unsupportedTextIn, type RenderOptions, type UnsupportedTextCode } from "./text-content";

/** The prepared design as a PNG `widthPx` wide (default 1600). */
export async function pngOf(prepared: PreparedRender, widthPx = 1600, compression = DEFAULT_PNG_COMPRESSION): Promise<Uint8Array> {
  // An opaque background makes every pixel opaque: nothing to un-premultiply.
  const opaque = prepared.layout.background.color.a >= 1;
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
 * Prepares the renderer so the first real render is not slow: compiles HarfBuzz (WebAssembly),
 * loads and parses the faces of the Latin fallbacks (Inter, Noto Serif: every text's chain has them)
 * and warms resvg. The other families load the first time a design uses them. Optional; call at
 * server start.
 */
export async function warmUpRenderer(options: RenderOptions = {}): Promise<void> {
  const families = ["Inter", "Noto Serif"] as const;
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
