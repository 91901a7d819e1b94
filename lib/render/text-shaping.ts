// One line of text shaped for drawing: split into runs by bidi level (bidi-js, the Unicode
// Bidirectional Algorithm), by font (the first face of the chain that draws each grapheme) and by
// colour emoji, each run shaped by HarfBuzz (shaper.ts), the runs put in visual order. What comes out
// is a list of clusters, left to right, each with its glyphs, its place on the line and the text it
// stands for: measuring (text-layout.ts), outlines (glyph-outlines.ts) and the PDF's invisible text
// layer all read this one result, so the PNG and the PDF draw the same thing.
//
// Units are em (font size 1); letter spacing is added by the caller after each `spaced` cluster.
import bidiFactory from "bidi-js";
import type { EmojiImage } from "./emoji";
import { faceFor, needsGlyph, type FontChain, type LoadedFont } from "./fonts";
import { shapeRun } from "./shaper";

const bidi = bidiFactory();
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A glyph of a cluster: offsets in em from the cluster's origin on the baseline, y up. */
export interface LineGlyph {
  face: LoadedFont;
  gid: number;
  dx: number;
  dy: number;
}

/** The smallest piece of a line that is drawn, selected and measured as a whole (a grapheme, a ligature, an Indic syllable). */
export interface ShapedCluster {
  /** The text it stands for: `text.slice(start, end)` of the line, in logical order. */
  start: number;
  end: number;
  /** Left edge from the line's start, and advance, in em (letter spacing not included). */
  x: number;
  advance: number;
  glyphs: LineGlyph[];
  /** A colour emoji drawn as a picture instead of glyphs. */
  emoji: EmojiImage | null;
  /** Letter spacing follows this cluster (not inside cursive scripts, whose letters join). */
  spaced: boolean;
}

export interface ShapedLine {
  text: string;
  /** Left to right. */
  clusters: ShapedCluster[];
  /** Sum of advances, in em. */
  advance: number;
  /** How many clusters letter spacing follows. */
  spaced: number;
  /** The paragraph's direction (right to left: Arabic, Hebrew, ... first). */
  rtl: boolean;
  /** The face of the line's first character: it sets the baseline in the line box. */
  firstFace: LoadedFont;
}

/** An emoji is drawn one em square, with a tenth of an em of space on either side. */
export const EMOJI_ADVANCE = 1.2;

// Scripts drawn without kerning and optional ligatures (see shapeRun): all characters in these.
const PLAIN =
  /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]*$/u;
// Cursive scripts: letter spacing would break their joins (CSS Text 3 says not to apply it).
const CURSIVE =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u;
// Characters that can make a text right to left (strong R/AL, and the controls that embed or override).
const MAYBE_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067\u061c]|[\ud802-\ud803\ud83a-\ud83b]/;
const BIDI_CONTROLS = /[\u200e\u202a-\u202e\u2066-\u2069]/;

/** The direction of a paragraph: right to left when its first strong character is (UAX #9 P2-P3). */
export function paragraphIsRtl(text: string): boolean {
  if (!MAYBE_RTL.test(text)) return false;
  return (bidi.getEmbeddingLevels(text, "auto").paragraphs[0]?.level ?? 0) % 2 === 1;
}

type Segment = { start: number; end: number; level: number; face: LoadedFont | null; emoji: EmojiImage | null };

/** Each grapheme's face (or emoji), then runs of one face and one bidi level, in logical order. */
function segments(text: string, chain: FontChain, levels: Uint8Array | null): Segment[] {
  type Piece = { start: number; end: number; face: LoadedFont | null; emoji: EmojiImage | null; blank: boolean };
  const pieces: Piece[] = [];
  for (const { segment: g, index } of graphemeSegmenter.segment(text)) {
    const emoji = chain.emoji.size ? (chain.emoji.get(g) ?? null) : null;
    if (emoji) {
      pieces.push({ start: index, end: index + g.length, face: null, emoji, blank: false });
      continue;
    }
    const cps = [...g].map((c) => c.codePointAt(0)!);
    const inked = cps.filter(needsGlyph);
    if (inked.length === 0) {
      pieces.push({ start: index, end: index + g.length, face: null, emoji: null, blank: true });
      continue;
    }
    // The first face that draws the whole grapheme, so a base and its marks are shaped together.
    const whole = chain.faces.find((f) => inked.every((cp) => f.metrics.glyphIndex(cp) !== 0));
    if (whole || inked.length === 1) {
      pieces.push({
        start: index,
        end: index + g.length,
        face: whole ?? faceFor(chain, inked[0]!) ?? chain.faces[0]!,
        emoji: null,
        blank: false,
      });
      continue;
    }
    // No one face has all of it: each character from the first face that has it.
    let at = index;
    for (const cp of cps) {
      const len = cp > 0xffff ? 2 : 1;
      pieces.push({ start: at, end: at + len, face: faceFor(chain, cp) ?? chain.faces[0]!, emoji: null, blank: false });
      at += len;
    }
  }
  // Spaces and controls take the face of the text before them (else after), so a run of Arabic
  // words is one run with its own spaces.
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (!p.blank) continue;
    const prev = pieces[i - 1];
    const near = prev && prev.face ? prev.face : pieces.slice(i + 1).find((q) => q.face)?.face;
    const cp = text.codePointAt(p.start)!;
    p.face =
      near && (near.metrics.glyphIndex(cp) !== 0 || (!needsGlyph(cp) && cp !== 0x20))
        ? near
        : (faceFor(chain, cp) ?? near ?? chain.faces[0]!);
  }
  const out: Segment[] = [];
  for (const p of pieces) {
    for (let i = p.start; i < p.end;) {
      const level = levels ? levels[i]! : 0;
      let j = i + 1;
      while (j < p.end && (levels ? levels[j]! : 0) === level) j++;
      const last = out[out.length - 1];
      if (last && !p.emoji && !last.emoji && last.face === p.face && last.level === level && last.end === i) last.end = j;
      else out.push({ start: i, end: j, level, face: p.face, emoji: p.emoji });
      i = j;
    }
  }
  return out;
}

/** UAX #9 L2: from the highest level to the lowest odd one, reverse every run of segments at that level or above. */
function visualOrder(segs: Segment[]): Segment[] {
  const order = [...segs];
  const max = Math.max(...order.map((s) => s.level));
  const minOdd = Math.min(...order.map((s) => (s.level % 2 ? s.level : s.level + 1)));
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < order.length;) {
      if (order[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && order[j]!.level >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order;
}

/**
 * Shapes one line of text. `rtl` is the paragraph's direction (see `paragraphIsRtl`); a line of
 * Latin, Cyrillic, CJK, ... text skips the bidi algorithm altogether.
 */
export function shapeLine(text: string, chain: FontChain, rtl = paragraphIsRtl(text)): ShapedLine {
  const needsBidi = rtl || MAYBE_RTL.test(text) || BIDI_CONTROLS.test(text);
  const levels = needsBidi ? bidi.getEmbeddingLevels(text, rtl ? "rtl" : "ltr").levels : null;
  const segs = segments(text, chain, levels);
  const clusters: ShapedCluster[] = [];
  let x = 0;
  let spaced = 0;
  for (const seg of visualOrder(segs)) {
    if (seg.emoji) {
      clusters.push({ start: seg.start, end: seg.end, x, advance: EMOJI_ADVANCE, glyphs: [], emoji: seg.emoji, spaced: true });
      x += EMOJI_ADVANCE;
      spaced++;
      continue;
    }
    const face = seg.face!;
    const piece = text.slice(seg.start, seg.end);
    const glyphs = shapeRun(face, text, seg.start, seg.end, seg.level % 2 === 1, PLAIN.test(piece));
    // Cluster starts in logical order give each cluster's end.
    const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((a, b) => a - b);
    const endOf = new Map(starts.map((s, i) => [s, starts[i + 1] ?? seg.end]));
    let current: ShapedCluster | null = null;
    for (const g of glyphs) {
      if (!current || current.start !== g.cluster) {
        const start = g.cluster;
        const end = endOf.get(start)!;
        current = { start, end, x, advance: 0, glyphs: [], emoji: null, spaced: !CURSIVE.test(text.slice(start, end)) };
        clusters.push(current);
        if (current.spaced) spaced++;
      }
      current.glyphs.push({ face, gid: g.gid, dx: current.advance + g.dx, dy: g.dy });
      current.advance += g.advance;
      x += g.advance;
    }
  }
  const firstFace = segs.find((s) => s.face)?.face ?? chain.faces[0]!;
  return { text, clusters, advance: x, spaced, rtl, firstFace };
}
