// Which writing systems a text uses, where that changes how (or whether) it can be drawn: satori lays
// text out left to right without shaping, so right-to-left scripts are refused, and CJK text drawn in
// a script font is made smaller (see prepare.ts).

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const RTL_ALL = new RegExp(RTL.source, "gu");

/** Characters of a text in right-to-left scripts (empty when there are none). */
export function rtlCharacters(text: string): string[] {
  return [...new Set(text.match(RTL_ALL) ?? [])];
}

const CJK_CHARS = /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\u{20000}-\u{3134f}]/gu;

/** True when at least half the letters of a text (punctuation, symbols and spaces aside) are Chinese, Japanese or Korean. */
export function mostlyCjk(text: string): boolean {
  const letters = text.replace(/[\s\p{P}\p{S}]/gu, "");
  return letters.length > 0 && (letters.match(CJK_CHARS)?.length ?? 0) * 2 >= [...letters].length;
}
