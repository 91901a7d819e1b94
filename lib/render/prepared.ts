// A document prepared for drawing: every element resolved once (attribute values filled in, text
// fitted and placed, colours parsed, geometry computed, images looked up) into plain data that a
// painter only has to write out in its format. Anything two formats would otherwise both compute
// (ring bands, QR module size, where an image lands) is computed here, once.
import type { RenderAsset } from "./assets";
import type { Rgba } from "./color";
import type { DesignElement } from "./document";
import type { FontChain, FontLibrary, LoadedFont } from "./fonts";
import type { TextRun } from "./glyph-outlines";
import type { QrRuns } from "./qr";

/** A rectangle in points, top-left origin. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A rectangle with corners rounded to radius `r` (already clamped to fit). */
export interface RoundedRect extends Box {
  r: number;
}

/** A CSS-style border band: the outer rectangle minus the inner one (none when the band fills it), filled even-odd. */
export interface Ring {
  outer: RoundedRect;
  inner: RoundedRect | null;
}

/** An image in a box. */
export interface ImageDrawing extends Box {
  asset: RenderAsset;
  fit: "contain" | "cover";
  opacity: number;
  /** Where the whole image lands once fitted (past the box for `cover`: clip to the box). */
  drawn: Box;
}

export interface BackgroundPlan {
  color: Rgba;
  image: ImageDrawing | null;
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
  color: Rgba;
  /** The non-empty lines, placed (and, after `prepareRender`, outlined). */
  runs: TextRun[];
}

export interface RectPlan {
  kind: "rect";
  index: number;
  fill: { color: Rgba; shape: RoundedRect } | null;
  stroke: { color: Rgba; ring: Ring } | null;
}

export interface LinePlan {
  kind: "line";
  index: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  thickness: number;
  color: Rgba;
}

export interface BorderPlan {
  kind: "border";
  index: number;
  color: Rgba;
  rings: Ring[];
}

export interface QrPlan {
  kind: "qr";
  index: number;
  x: number;
  y: number;
  size: number;
  background: Rgba;
  /** The code's dark modules, in a grid of `moduleSize` points from (x, y); null when there is no URL to encode. */
  code: { color: Rgba; x: number; y: number; moduleSize: number; runs: QrRuns["runs"] } | null;
}

export interface ImagePlan {
  kind: "image";
  index: number;
  image: ImageDrawing;
}

/** One drawable element, in document order (an image whose asset is missing is left out). */
export type ElementPlan = TextPlan | RectPlan | LinePlan | BorderPlan | QrPlan | ImagePlan;

export interface DocumentLayout {
  /** Canvas size in points. */
  width: number;
  height: number;
  background: BackgroundPlan;
  elements: ElementPlan[];
  /** The document's locale (the PDF's language). */
  locale: string;
  fonts: FontLibrary;
  /** Every font face the texts use. */
  faces: Set<LoadedFont>;
  /** Problems that did not stop rendering (texts cut short, characters drawn as boxes). */
  warnings: string[];
  /**
   * Text elements (by index) whose text does not fit its box even at its smallest size and was cut
   * short: the one rule for "this text overflows", which the design editor outlines.
   */
  overflows: number[];
}

/** A laid-out document with its text outlines: everything needed to draw it, in any format. */
export interface PreparedRender {
  layout: DocumentLayout;
  /** Text runs by element index (elements with something to draw), with their glyph outlines. */
  lines: ReadonlyMap<number, TextRun[]>;
}
