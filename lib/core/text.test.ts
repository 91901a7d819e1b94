import { describe, expect, it } from "vitest";
import { multiLineText, singleLineText, textProblem, unicodeProblem, unicodeProblemsIn } from "./text";

describe("unicodeProblem", () => {
  it("accepts any well-formed text, astral characters included", () => {
    for (const ok of ["", "Ada Lovelace", "محمد علي", "🎓 grade A", "a\tb\nc", "\u200fשלום"]) expect(unicodeProblem(ok)).toBeNull();
  });
  it("refuses unpaired surrogates, high or low, and NUL", () => {
    expect(unicodeProblem("a\ud800")).toMatch(/unpaired surrogate/);
    expect(unicodeProblem("\udc00b")).toMatch(/unpaired surrogate/);
    expect(unicodeProblem("\ud83c\ud83c")).toMatch(/unpaired surrogate/);
    expect(unicodeProblem("a\u0000b")).toMatch(/NUL/);
  });
});

describe("textProblem", () => {
  it("single-line text refuses every control character, line separators and bidi overrides and isolates", () => {
    for (const bad of ["a\nb", "a\tb", "a\rb", "a\u007fb", "a\u0085b", "a\u2028b", "a\u202eb", "a\u202ab", "a\u2066b", "a\u2069b"]) {
      expect(textProblem(bad, "single-line"), JSON.stringify(bad)).not.toBeNull();
    }
    expect(textProblem("Ada\u202eecalevoL", "single-line")).toBe(
      "must not contain bidirectional override or isolate characters (found U+202E)",
    );
    expect(textProblem("a\u0007b", "single-line")).toBe("must be a single line without control characters (found U+0007)");
  });
  it("single-line text keeps direction marks and every script", () => {
    for (const ok of ["\u200eAda", "דוד כהן", "अनन्या शर्मा", "สมชาย ใจดี", "Zoë O'Brien-Łukasz"])
      expect(textProblem(ok, "single-line")).toBeNull();
  });
  it("multi-line text keeps tab and line breaks, and refuses other controls", () => {
    expect(textProblem("line 1\r\nline 2\tend\u2028", "multi-line")).toBeNull();
    expect(textProblem("a\u000bb", "multi-line")).toBe("must not contain control characters other than tab and line breaks (found U+000B)");
    expect(textProblem("a\u0000b", "multi-line")).toMatch(/NUL/);
  });
});

describe("text schemas", () => {
  it("trim before checking when asked, so surrounding line breaks are removed rather than refused", () => {
    expect(singleLineText({ trim: true }).parse("  Ada \n")).toBe("Ada");
    expect(singleLineText().safeParse("Ada\n").success).toBe(false);
  });
  it("report the rule's message", () => {
    const result = multiLineText().safeParse("a\ud800");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/unpaired surrogate/);
  });
});

describe("unicodeProblemsIn", () => {
  it("finds bad strings and field names anywhere, with their paths", () => {
    const found = unicodeProblemsIn({ a: ["ok", "x\u0000"], b: { "k\ud800": 1, c: { d: "\udfff" } } });
    expect(found).toEqual([
      { path: ["a", 1], message: "must not contain NUL characters (U+0000)" },
      { path: ["b"], message: "field names must be valid Unicode text; it contains an unpaired surrogate" },
      { path: ["b", "c", "d"], message: "must be valid Unicode text; it contains an unpaired surrogate" },
    ]);
  });
  it("walks a body nested 100,000 levels deep without overflowing", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const found = unicodeProblemsIn(deep);
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toHaveLength(100_000);
  });
});
