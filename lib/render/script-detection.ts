// Which writing systems a text uses, where that changes how it is drawn: CJK text drawn in a
// script font is made smaller (see prepare.ts).

const CJK_CHARS =
  /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\u{20000}-\u{3134f}]/gu;

/** True when at least half the letters of a text (punctuation, symbols and spaces aside) are Chinese, Japanese or Korean. */
export function mostlyCjk(text: string): boolean {
  const letters = text.replace(/[\s\p{P}\p{S}]/gu, "");
  return letters.length > 0 && (letters.match(CJK_CHARS)?.length ?? 0) * 2 >= [...letters].length;
}
