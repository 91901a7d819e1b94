// Text runs to glyph outlines: the one place that turns "this text, in this font and size" into
// shapes. Satori draws the runs new to the process in a single pass, each in a unique colour so its
// path can be told apart; the rest come from a process-wide cache. Shapes, images and QR codes never
// go through satori: its clip paths and masks are slow to rasterise.
//
// Painters receive runs that are already placed (prepare.ts) and outlined (here), and only write them
// out. Proper shaping (HarfBuzz, bidi) would replace this module's insides: runs in, outlines out.
import satori from "satori";
import type { FontChain, FontLibrary, FontWeight, LoadedFont } from "./fonts";

/**
 * Layout units per point. Text is measured and drawn at this scale: satori's integer rounding of
 * line boxes then costs at most 1/4 pt. Glyph outlines are in these units.
 */
export const LAYOUT_SCALE = 2;

/** How a run of text is drawn (sizes in points). */
export interface RunStyle {
  /** The font library's id (outline cache key). */
  fontsId: number;
  chain: FontChain;
  weight: FontWeight;
  fontSize: number;
  letterSpacing: number;
  lineBox: number;
}

/** A run's glyph outlines as SVG path data in layout units, y down, origin at the top left of its line box. */
export interface GlyphOutline {
  d: string;
}

/** One line of text placed on the canvas: what it says, how and where it is drawn, and its outlines. */
export interface TextRun {
  /** Index of the text element in the document. */
  index: number;
  text: string;
  style: RunStyle;
  /** Top left of the line box, in points. */
  x: number;
  y: number;
  /** Advance width as laid out, in points (satori's: letter spacing after the last glyph included). */
  width: number;
  /** Empty until `outlineRuns` has run; stays empty for a run with nothing to draw. */
  outline: GlyphOutline;
}

/**
 * Outlines of runs already drawn, keyed by font, size, spacing and text. Fixed texts ("This is to
 * certify that", labels, the group and organization names of a batch) are drawn by satori once per
 * process; only the new runs of each render (usually the recipient's name and the credential id)
 * go through satori. Bounded by total path length.
 */
const outlineCache = new Map<string, GlyphOutline>();
let outlineCacheChars = 0;
const OUTLINE_CACHE_CHARS = 8 * 1024 * 1024;

function cacheOutline(key: string, outline: GlyphOutline) {
  outlineCache.set(key, outline);
  outlineCacheChars += key.length + outline.d.length;
  for (const [oldKey, old] of outlineCache) {
    if (outlineCacheChars <= OUTLINE_CACHE_CHARS) break;
    outlineCache.delete(oldKey);
    outlineCacheChars -= oldKey.length + old.d.length;
  }
}

function runKey({ style, text }: TextRun): string {
  const k = LAYOUT_SCALE;
  return `${style.fontsId}|${style.chain.names.join(",")}|${style.weight}|${style.fontSize * k}|${style.letterSpacing * k}|${style.lineBox * k}|${text}`;
}

type Node = { type: string; props: { style?: Record<string, unknown>; children?: unknown } };

function runNode({ style, text }: TextRun, color: string): Node {
  const k = LAYOUT_SCALE;
  return {
    type: "div",
    props: {
      style: {
        position: "absolute",
        left: 0,
        top: 0,
        display: "flex",
        height: style.lineBox * k,
        fontFamily: style.chain.names.join(", "),
        fontWeight: style.weight,
        fontSize: style.fontSize * k,
        letterSpacing: style.letterSpacing * k,
        lineHeight: `${style.lineBox * k}px`,
        color,
        whiteSpace: "nowrap",
      },
      children: text,
    },
  };
}

function normalizeFill(fill: string): string {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(fill);
  if (m) return `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("")}`;
  return fill.toLowerCase();
}

/**
 * Fills in every run's outline: cached ones from the outline cache, the rest from one satori pass
 * over those runs only. `faces` are the font faces satori may need (every face of the document's texts).
 */
export async function outlineRuns(runs: readonly TextRun[], fonts: FontLibrary, faces: Iterable<LoadedFont>): Promise<void> {
  const k = LAYOUT_SCALE;
  const missing = new Map<string, { run: TextRun; color: string; waiting: TextRun[] }>();
  for (const run of runs) {
    const key = runKey(run);
    const hit = outlineCache.get(key);
    if (hit) {
      run.outline = hit;
      // Refresh its place in the eviction order.
      outlineCache.delete(key);
      outlineCache.set(key, hit);
      continue;
    }
    let entry = missing.get(key);
    if (!entry) {
      entry = { run, color: `#${(missing.size + 1).toString(16).padStart(6, "0")}`, waiting: [] };
      missing.set(key, entry);
    }
    entry.waiting.push(run);
  }
  if (missing.size === 0) return;

  const entries = [...missing.entries()];
  const width = Math.ceil(Math.max(...entries.map(([, e]) => e.run.width + 8)) * k);
  const height = Math.ceil(Math.max(...entries.map(([, e]) => e.run.style.lineBox)) * k) + 1;
  const svg = await satori(
    {
      type: "div",
      props: {
        style: { display: "flex", position: "relative", width, height },
        children: entries.map(([, e]) => runNode(e.run, e.color)),
      },
    } as unknown as Parameters<typeof satori>[0],
    { width, height, fonts: fonts.satoriFonts(faces) },
  );
  const byColor = new Map(entries.map(([key, e]) => [e.color, { key, e, d: [] as string[] }]));
  for (const m of svg.matchAll(/<path\b([^>]*)\/?>/g)) {
    const attrs = m[1]!;
    const fill = /\bfill="([^"]+)"/.exec(attrs)?.[1];
    const d = /\bd="([^"]+)"/.exec(attrs)?.[1];
    if (fill && d) byColor.get(normalizeFill(fill))?.d.push(d);
  }
  for (const { key, e, d } of byColor.values()) {
    const outline: GlyphOutline = { d: d.join(" ") };
    for (const run of e.waiting) run.outline = outline;
    cacheOutline(key, outline);
  }
}
