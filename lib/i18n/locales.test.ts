import { describe, expect, it } from "vitest";
import { textDirection } from "./locales";
import { localeFromAcceptLanguage } from "./negotiation";

describe("localeFromAcceptLanguage", () => {
  it.each([
    ["es-MX,es;q=0.9,en;q=0.5", "es"],
    ["pt-PT,pt;q=0.9", "pt-BR"],
    ["zh-CN,zh;q=0.9", "zh-Hans"],
    ["ar-EG", "ar"],
    ["de-CH;q=0.1, fr", "fr"],
    ["hi-IN", "hi"],
    ["en-GB", "en"],
  ])("%s → %s", (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });

  it.each([[undefined], [null], [""], ["*"], ["xx-YY"], ["%%%;q=abc"], ["a".repeat(5000)], [",,,;;;"]])(
    "falls back to English for %s",
    (header) => {
      expect(localeFromAcceptLanguage(header)).toBe("en");
    },
  );

  it("skips a malformed entry and uses the next one", () => {
    expect(localeFromAcceptLanguage("*, not_a_tag!, fr-CA;q=0.8")).toBe("fr");
  });
});

describe("textDirection", () => {
  it("is right-to-left for Arabic only", () => {
    expect(textDirection("ar")).toBe("rtl");
    expect(textDirection("he" as never)).toBe("ltr");
    expect(textDirection("zh-Hans")).toBe("ltr");
  });
});
