// Text runs to glyph outlines: the one place that turns a shaped line (text-shaping.ts) "in this
// font and size" into shapes. Each glyph's outline comes from HarfBuzz (kept per face and glyph),
// placed where shaping put it; a run's outline is one path, kept in a process-wide cache so fixed
// texts ("This is to certify that", labels) are built once per process.
//
// Painters receive runs that are already placed (prepare.ts) and outlined (here), and only write them
// out: the glyph outline, the colour emoji and, for the PDF's text layer, each cluster's text and box.
import type { EmojiImage } from "./emoji";
import type { FontChain, FontWeight } from "./fonts";
import { glyphPath, unitsPerEm } from "./shaper";
import type { ShapedLine } from "./text-shaping";

/**
 * Layout units per point. Text is measured and drawn at this scale (line boxes are whole layout
 * units, as before, so they round to 1/2 pt). Glyph outlines are in these units.
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

/** A colour emoji of a run, placed on the canvas (points). */
export interface PlacedEmoji {
  image: EmojiImage;
  x: number;
  y: number;
  size: number;
}

/** A cluster's text and where it is drawn on the canvas (points): what the PDF's invisible text layer writes. */
export interface PlacedCluster {
  text: string;
  x: number;
  width: number;
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
  /** Advance width as laid out, in points (letter spacing after the last cluster included). */
  width: number;
  /** The baseline, in points from the top of the line box. */
  baseline: number;
  /** The shaped line: clusters, glyphs and positions, left to right. */
  line: ShapedLine;
  /** Clusters in reading (logical) order, placed. */
  clusters: PlacedCluster[];
  emoji: PlacedEmoji[];
  /** Empty until `outlineRuns` has run; stays empty for a run with nothing to draw. */
  outline: GlyphOutline;
}

/**
 * The baseline's distance from the top of a line box, in layout units: the first character's face's
 * ascent and descent centred in the box, rounded to a whole unit (as satori, which drew text before,
 * placed it: designs and golden images keep their look).
 */
export function baselineIn(line: ShapedLine, fontSizeK: number, lineBoxK: number): number {
  const m = line.firstFace.metrics;
  const asc = (m.ascender / m.unitsPerEm) * fontSizeK;
  const desc = (m.descender / m.unitsPerEm) * fontSizeK;
  return Math.round(asc + (lineBoxK - (asc - desc)) / 2);
}

/** Left edge of each cluster in layout units, letter spacing included. */
function clusterLefts(line: ShapedLine, sizeK: number, lsK: number): number[] {
  let spacedBefore = 0;
  return line.clusters.map((c) => {
    const x = c.x * sizeK + spacedBefore * lsK;
    if (c.spaced) spacedBefore++;
    return x;
  });
}

/** Where a line's emoji and clusters land on the canvas, for a run whose line box starts at (x, y) (points). */
export function placeRunContents(
  line: ShapedLine,
  style: RunStyle,
  x: number,
  y: number,
  baseline: number,
): { clusters: PlacedCluster[]; emoji: PlacedEmoji[] } {
  const k = LAYOUT_SCALE;
  const lefts = clusterLefts(line, style.fontSize * k, style.letterSpacing * k);
  const emoji: PlacedEmoji[] = [];
  const placed = line.clusters.map((c, i) => {
    const left = x + lefts[i]! / k;
    if (c.emoji) {
      // One em square, its bottom an eighth of an em below the baseline (as emoji fonts sit).
      emoji.push({
        image: c.emoji,
        x: left + ((c.advance - 1) * style.fontSize) / 2,
        y: y + baseline - 0.875 * style.fontSize,
        size: style.fontSize,
      });
    }
    // The letter spacing after a cluster belongs to it: spaced-out capitals still read as one word.
    return {
      text: line.text.slice(c.start, c.end),
      x: left,
      width: c.advance * style.fontSize + (c.spaced ? style.letterSpacing : 0),
      start: c.start,
    };
  });
  // Reading order: as the text is written, whatever the direction it is drawn in.
  placed.sort((a, b) => a.start - b.start);
  return { clusters: placed.map(({ text, x: cx, width }) => ({ text, x: cx, width })), emoji };
}

/**
 * Outlines of runs already drawn, keyed by font, size, spacing and text. Fixed texts are built once
 * per process; only the new runs of each render (usually the recipient's name and the credential id)
 * are built. Bounded by total path length.
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

function runKey({ style, text, line }: TextRun): string {
  const k = LAYOUT_SCALE;
  return `${style.fontsId}|${style.chain.faces.map((f) => f.id).join(",")}|${style.fontSize * k}|${style.letterSpacing * k}|${style.lineBox * k}|${line.rtl ? "r" : "l"}|${text}`;
}

// A tenth of a layout unit (1/20 pt) is finer than any output shows, and is the precision the
// golden images were drawn at.
const r1 = (v: number) => {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? 0 : r;
};

/** A shaped line's glyph outlines as one SVG path (layout units, y down, from the top left of the line box). */
function outlineOf(run: TextRun): GlyphOutline {
  const k = LAYOUT_SCALE;
  const sizeK = run.style.fontSize * k;
  const lefts = clusterLefts(run.line, sizeK, run.style.letterSpacing * k);
  const baseline = run.baseline * k;
  const parts: string[] = [];
  run.line.clusters.forEach((c, i) => {
    for (const g of c.glyphs) {
      const scale = sizeK / unitsPerEm(g.face);
      const ox = lefts[i]! + g.dx * sizeK;
      const oy = baseline - g.dy * sizeK;
      for (const { type, values: v } of glyphPath(g.face, g.gid)) {
        if (type === "Z") {
          parts.push("Z");
          continue;
        }
        let cmd = type;
        for (let j = 0; j < v.length; j += 2) cmd += `${j ? " " : ""}${r1(ox + v[j]! * scale)} ${r1(oy - v[j + 1]! * scale)}`;
        parts.push(cmd);
      }
    }
  });
  return { d: parts.join("") };
}

/** Fills in every run's outline: cached ones from the outline cache, the rest built from their shaped lines. */
export function outlineRuns(runs: readonly TextRun[]): void {
  for (const run of runs) {
    const key = runKey(run);
    let outline = outlineCache.get(key);
    if (outline) {
      // Refresh its place in the eviction order.
      outlineCache.delete(key);
      outlineCache.set(key, outline);
    } else {
      outline = outlineOf(run);
      cacheOutline(key, outline);
    }
    run.outline = outline;
  }
}
