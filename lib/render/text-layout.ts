// Text fitting: choose a font size and line breaks so a text fits its box on at most `maxLines`
// lines. Words are measured shaped (text-shaping.ts), as they are drawn, so the lines chosen here are
// the lines drawn. Lines break after spaces and hyphens, between CJK characters, and between words
// of Thai, Lao, Khmer and Myanmar (which put no spaces between words: ICU's dictionary finds them);
// never inside a grapheme or a shaped cluster.
import type { FontChain } from "./fonts";
import { paragraphIsRtl, shapeLine } from "./text-shaping";

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

interface Grapheme {
  text: string;
  space: boolean;
  /** A line may break after this grapheme. */
  breakAfter: boolean;
}

/** A run of graphemes that stays on one line: a word and the spaces after it. */
interface Token {
  text: string;
  /** Width at size 1 and count of letter-spaced clusters, with and without the trailing spaces. */
  unit: number;
  glyphs: number;
  trimmedText: string;
  trimmedUnit: number;
  trimmedGlyphs: number;
  /** Forced line break after this token (a newline in the template). */
  hardBreak: boolean;
  /** Its paragraph runs right to left. */
  rtl: boolean;
}

// Characters after which a line may break: CJK ideographs, kana and Hangul break anywhere.
const CJK_CHAR =
  /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\uffef]|[\u{20000}-\u{3134f}]/u;
const BREAK_AFTER = /^[-‐–—/]$/u;
// Scripts written without spaces between words.
const NO_SPACES = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff]/u;

/** UTF-16 offsets where a word of a no-spaces script ends inside `text` (ICU's dictionary break iterator). */
function wordEnds(text: string): Set<number> {
  const ends = new Set<number>();
  if (!NO_SPACES.test(text)) return ends;
  for (const { index, segment } of new Intl.Segmenter("th", { granularity: "word" }).segment(text)) ends.add(index + segment.length);
  return ends;
}

function graphemes(text: string): Grapheme[] {
  const out: Grapheme[] = [];
  const segs = [...graphemeSegmenter.segment(text)];
  const words = wordEnds(text);
  segs.forEach(({ segment: g, index }, i) => {
    const next = segs[i + 1]?.segment;
    const space = /^\s+$/u.test(g);
    const end = index + g.length;
    const breakAfter =
      next !== undefined &&
      !/^\s+$/u.test(next) &&
      (space ||
        BREAK_AFTER.test(g) ||
        CJK_CHAR.test(g) ||
        CJK_CHAR.test(next) ||
        (words.has(end) && NO_SPACES.test(g) && NO_SPACES.test(next)));
    out.push({ text: g, space, breakAfter });
  });
  return out;
}

function measure(text: string, chain: FontChain, rtl: boolean): { unit: number; glyphs: number } {
  if (!text) return { unit: 0, glyphs: 0 };
  const line = shapeLine(text, chain, rtl);
  return { unit: line.advance, glyphs: line.spaced };
}

function tokenize(text: string, chain: FontChain, wordSpace: string): Token[] {
  const tokens: Token[] = [];
  const paragraphs = text.split("\n");
  paragraphs.forEach((para, p) => {
    const rtl = paragraphIsRtl(para);
    const gs = graphemes(para.replace(/\s+/gu, " ").trim().replace(/ /g, wordSpace));
    let cur: Grapheme[] = [];
    const flush = (hardBreak: boolean) => {
      let end = cur.length;
      while (end > 0 && cur[end - 1]!.space) end--;
      const trimmedText = cur
        .slice(0, end)
        .map((g) => g.text)
        .join("");
      const spaces = cur
        .slice(end)
        .map((g) => g.text)
        .join("");
      const trimmed = measure(trimmedText, chain, rtl);
      const trailing = measure(spaces, chain, rtl);
      tokens.push({
        text: trimmedText + spaces,
        unit: trimmed.unit + trailing.unit,
        glyphs: trimmed.glyphs + trailing.glyphs,
        trimmedText,
        trimmedUnit: trimmed.unit,
        trimmedGlyphs: trimmed.glyphs,
        hardBreak,
        rtl,
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
  /** Width of each line as measured (letter spacing after every spaced cluster included). */
  lineWidths: number[];
  /** Whether each line's paragraph runs right to left. */
  lineRtl: boolean[];
  fontSize: number;
  /** Height of one line box (rounded to whole layout units). */
  lineBox: number;
  /** True when the whole text fits; false when it was cut short with an ellipsis. */
  fits: boolean;
}

// Widths are floating point sums: keep a hair of slack.
const SLACK = 0.999;
const ELLIPSIS = "…";
/** Fewer lines win when their size is at least this share of the size with more lines. */
const PREFER_FEWER_LINES = 0.85;

function wrap(
  tokens: Token[],
  size: number,
  ls: number,
  width: number,
): { lines: string[]; widths: number[]; rtl: boolean[]; overflow: boolean } {
  const lines: string[] = [];
  const widths: number[] = [];
  const rtl: boolean[] = [];
  let lineRtl = false;
  let text = "";
  let trimmedText = "";
  let w = 0; // width including trailing spaces of the last token
  let trimmedW = 0;
  let open = false;
  let overflow = false;
  const push = () => {
    lines.push(trimmedText);
    widths.push(trimmedW);
    rtl.push(lineRtl);
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
    if (!open) lineRtl = t.rtl;
    trimmedText = text + t.trimmedText;
    trimmedW = w + tTrim;
    text += t.text;
    w += tw;
    open = true;
    if (t.hardBreak) push();
  }
  if (open) push();
  return { lines, widths, rtl, overflow };
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
    return { lines: best.lines, lineWidths: best.widths, lineRtl: best.rtl, fontSize: best.size, lineBox: best.box, fits: true };
  }
  best = attempt(opts.shrinkToFit ? opts.minSize : opts.size);
  return truncate(tokens, chain, best.size, opts);
}

function truncate(tokens: Token[], chain: FontChain, size: number, opts: FitOptions): TextFit {
  const ls = opts.letterSpacing;
  const box = lineBoxOf(size, opts.lineHeight);
  const allowed = Math.max(1, Math.min(opts.maxLines, Math.floor((opts.height + 0.5) / box)));
  const { lines, rtl } = wrap(tokens, size, ls, opts.width);
  const kept = lines.slice(0, allowed);
  const widthOf = (s: string, r: boolean) => {
    const m = measure(s, chain, r);
    return m.unit * size + m.glyphs * ls;
  };
  const cut = (line: string, r: boolean, forceEllipsis: boolean): string => {
    if (!forceEllipsis && widthOf(line, r) <= opts.width * SLACK) return line;
    const gs = [...graphemeSegmenter.segment(line)].map((s) => s.segment);
    // Halve the cut while far too long (a 10,000-character word), then one grapheme at a time.
    while (gs.length > 64 && widthOf(gs.slice(0, gs.length >> 1).join("") + ELLIPSIS, r) > opts.width * SLACK) gs.length = gs.length >> 1;
    while (gs.length > 1 && widthOf(gs.join("").trimEnd() + ELLIPSIS, r) > opts.width * SLACK) gs.pop();
    return gs.join("").trimEnd() + ELLIPSIS;
  };
  const out = kept.map((line, i) => cut(line, rtl[i]!, i === kept.length - 1 && lines.length > kept.length));
  return {
    lines: out,
    lineWidths: out.map((l, i) => widthOf(l, rtl[i]!)),
    lineRtl: rtl.slice(0, out.length),
    fontSize: size,
    lineBox: box,
    fits: false,
  };
}
