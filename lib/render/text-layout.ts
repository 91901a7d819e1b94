// Text fitting: choose a font size and line breaks so a text fits its box on at most `maxLines`
// lines. Widths are computed exactly as satori computes them (the sum of each grapheme's advance in
// the first font of the chain that has it, plus letter spacing per glyph, no kerning), so the lines
// chosen here are the lines satori draws. The renderer hands satori one explicit line per block.
import { faceFor, type FontChain } from "./fonts";

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

interface Grapheme {
  text: string;
  /** Advance at font size 1. */
  unit: number;
  /** Glyph count (letter spacing is added once per glyph). */
  glyphs: number;
  space: boolean;
  /** A line may break after this grapheme. */
  breakAfter: boolean;
}

/** A run of graphemes that stays on one line: a word and the spaces after it. */
interface Token {
  text: string;
  /** Width at size 1 and glyph count, with and without the trailing spaces. */
  unit: number;
  glyphs: number;
  trimmedText: string;
  trimmedUnit: number;
  trimmedGlyphs: number;
  /** Forced line break after this token (a newline in the template). */
  hardBreak: boolean;
}

// Characters after which a line may break: CJK ideographs, kana and Hangul break anywhere.
const CJK_CHAR = /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{3134f}]/u;
const BREAK_AFTER = /^[-‐–—/]$/u;

function measureGrapheme(chain: FontChain, g: string): { unit: number; glyphs: number } {
  const first = g.codePointAt(0)!;
  const face = faceFor(chain, first) ?? chain.faces[chain.faces.length - 1]!;
  let unit = 0;
  let glyphs = 0;
  for (const ch of g) {
    const cp = ch.codePointAt(0)!;
    // Like satori: the grapheme's font draws it; a glyph it lacks comes from the next font that has it.
    let f = face;
    let gid = f.metrics.glyphIndex(cp);
    if (gid === 0) {
      const other = faceFor(chain, cp);
      if (other) {
        f = other;
        gid = other.metrics.glyphIndex(cp);
      }
    }
    unit += f.metrics.advance(gid) / f.metrics.unitsPerEm;
    glyphs++;
  }
  return { unit, glyphs };
}

function graphemes(text: string, chain: FontChain): Grapheme[] {
  const out: Grapheme[] = [];
  const segs = [...graphemeSegmenter.segment(text)].map((s) => s.segment);
  segs.forEach((g, i) => {
    const next = segs[i + 1];
    const space = /^\s+$/u.test(g);
    const { unit, glyphs } = measureGrapheme(chain, g);
    const breakAfter =
      next !== undefined &&
      !/^\s+$/u.test(next) &&
      (space || BREAK_AFTER.test(g) || CJK_CHAR.test(g) || CJK_CHAR.test(next));
    out.push({ text: g, unit, glyphs, space, breakAfter });
  });
  return out;
}

function tokenize(text: string, chain: FontChain, wordSpace: string): Token[] {
  const tokens: Token[] = [];
  const paragraphs = text.split("\n");
  paragraphs.forEach((para, p) => {
    const gs = graphemes(para.replace(/\s+/gu, " ").trim().replace(/ /g, wordSpace), chain);
    let cur: Grapheme[] = [];
    const flush = (hardBreak: boolean) => {
      let end = cur.length;
      while (end > 0 && cur[end - 1]!.space) end--;
      const trimmed = cur.slice(0, end);
      tokens.push({
        text: cur.map((g) => g.text).join(""),
        unit: cur.reduce((a, g) => a + g.unit, 0),
        glyphs: cur.reduce((a, g) => a + g.glyphs, 0),
        trimmedText: trimmed.map((g) => g.text).join(""),
        trimmedUnit: trimmed.reduce((a, g) => a + g.unit, 0),
        trimmedGlyphs: trimmed.reduce((a, g) => a + g.glyphs, 0),
        hardBreak,
      });
      cur = [];
    };
    for (const g of gs) {
      cur.push(g);
      if (g.breakAfter) flush(false);
    }
    if (cur.length || p < paragraphs.length - 1) flush(p < paragraphs.length - 1);
  });
  return tokens;
}

export interface FitOptions {
  width: number;
  height: number;
  size: number;
  minSize: number;
  maxLines: number;
  shrinkToFit: boolean;
  letterSpacing: number;
  lineHeight: number;
  /** What a space between words becomes (script fonts have very narrow spaces); default " ". */
  wordSpace?: string;
}

export interface TextFit {
  lines: string[];
  /** Width of each line as satori will measure it. */
  lineWidths: number[];
  fontSize: number;
  /** Height of one line box (satori rounds it to whole units). */
  lineBox: number;
  /** True when the whole text fits; false when it was cut short with an ellipsis. */
  fits: boolean;
}

// Satori measures in floating point and compares `lineWidth > boxWidth`: keep a hair of slack.
const SLACK = 0.999;
const ELLIPSIS = "…";
/** Fewer lines win when their size is at least this share of the size with more lines. */
const PREFER_FEWER_LINES = 0.85;

function wrap(tokens: Token[], size: number, ls: number, width: number): { lines: string[]; widths: number[]; overflow: boolean } {
  const lines: string[] = [];
  const widths: number[] = [];
  let text = "";
  let trimmedText = "";
  let w = 0; // width including trailing spaces of the last token
  let trimmedW = 0;
  let open = false;
  let overflow = false;
  const push = () => {
    lines.push(trimmedText);
    widths.push(trimmedW);
    text = "";
    trimmedText = "";
    w = 0;
    trimmedW = 0;
    open = false;
  };
  for (const t of tokens) {
    const tw = t.unit * size + t.glyphs * ls;
    const tTrim = t.trimmedUnit * size + t.trimmedGlyphs * ls;
    if (open && w + tTrim > width * SLACK) push();
    if (!open && tTrim > width * SLACK) overflow = true;
    trimmedText = text + t.trimmedText;
    trimmedW = w + tTrim;
    text += t.text;
    w += tw;
    open = true;
    if (t.hardBreak) push();
  }
  if (open) push();
  return { lines, widths, overflow };
}

function lineBoxOf(size: number, lineHeight: number): number {
  return Math.round(size * lineHeight);
}

/**
 * Lays a text out in a box. With `shrinkToFit`, the largest size between `minSize` and `size` (to
 * 0.1 unit) at which the text fits on `maxLines` lines within the box's width and height; without
 * it, or when even `minSize` is too large, the text is cut after the last line that fits with an
 * ellipsis (`fits: false`).
 */
export function fitText(text: string, chain: FontChain, opts: FitOptions): TextFit {
  const tokens = tokenize(text, chain, opts.wordSpace ?? " ");
  const ls = opts.letterSpacing;
  const attempt = (size: number) => {
    const r = wrap(tokens, size, ls, opts.width);
    const box = lineBoxOf(size, opts.lineHeight);
    const ok = !r.overflow && r.lines.length <= opts.maxLines && r.lines.length * box <= opts.height + 0.5;
    return { ...r, ok, size, box };
  };

  // The largest size (to 0.1 unit) at which the text fits on at most `lines` lines, or null.
  const largest = (lines: number) => {
    const ok = (r: ReturnType<typeof attempt>) => r.ok && r.lines.length <= lines;
    const top = attempt(opts.size);
    if (ok(top)) return top;
    if (!opts.shrinkToFit || opts.minSize >= opts.size) return null;
    const floor = attempt(opts.minSize);
    if (!ok(floor)) return null;
    let lo = opts.minSize;
    let hi = opts.size;
    let best = floor;
    while (hi - lo > 0.1) {
      const mid = (lo + hi) / 2;
      const r = attempt(mid);
      if (ok(r)) {
        lo = mid;
        best = r;
      } else hi = mid;
    }
    return best;
  };

  let best = largest(opts.maxLines);
  if (best && opts.shrinkToFit && best.lines.length > 1) {
    // Prefer fewer lines when that costs little size: a name on one line at 40pt reads better
    // than broken over two at 44pt.
    for (let lines = 1; lines < best.lines.length; lines++) {
      const fewer = largest(lines);
      if (fewer && fewer.size >= best.size * PREFER_FEWER_LINES) {
        best = fewer;
        break;
      }
    }
  }
  if (best) {
    return { lines: best.lines, lineWidths: best.widths, fontSize: best.size, lineBox: best.box, fits: true };
  }
  best = attempt(opts.shrinkToFit ? opts.minSize : opts.size);
  return truncate(tokens, chain, best.size, opts);
}

function truncate(tokens: Token[], chain: FontChain, size: number, opts: FitOptions): TextFit {
  const ls = opts.letterSpacing;
  const box = lineBoxOf(size, opts.lineHeight);
  const allowed = Math.max(1, Math.min(opts.maxLines, Math.floor((opts.height + 0.5) / box)));
  const { lines } = wrap(tokens, size, ls, opts.width);
  const kept = lines.slice(0, allowed);
  const widthOf = (s: string) =>
    [...graphemeSegmenter.segment(s)].reduce((a, { segment }) => {
      const m = measureGrapheme(chain, segment);
      return a + m.unit * size + m.glyphs * ls;
    }, 0);
  const cut = (line: string, forceEllipsis: boolean): string => {
    if (!forceEllipsis && widthOf(line) <= opts.width * SLACK) return line;
    const gs = [...graphemeSegmenter.segment(line)].map((s) => s.segment);
    while (gs.length > 1 && widthOf(gs.join("").trimEnd() + ELLIPSIS) > opts.width * SLACK) gs.pop();
    return gs.join("").trimEnd() + ELLIPSIS;
  };
  const out = kept.map((line, i) => cut(line, i === kept.length - 1 && lines.length > kept.length));
  return { lines: out, lineWidths: out.map(widthOf), fontSize: size, lineBox: box, fits: false };
}
