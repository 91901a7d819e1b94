import { describe, expect, it } from "vitest";
import { languageAutonym, supportedLocaleFor, visitorLanguage } from "./visitor-language";

describe("visitorLanguage: ?lang= > remembered choice > group's language > Accept-Language > English", () => {
  it("a link's ?lang= wins over everything, and is remembered", () => {
    expect(visitorLanguage({ param: "de", cookie: "fr", fixed: "es", acceptLanguage: "hi" })).toEqual({
      locale: "de",
      unavailable: null,
      remember: "de",
    });
  });

  it("a regional or differently cased ?lang= finds its language", () => {
    expect(visitorLanguage({ param: "pt-br" }).locale).toBe("pt-BR");
    expect(visitorLanguage({ param: "es-MX" }).locale).toBe("es");
    expect(visitorLanguage({ param: "zh-CN" }).remember).toBe("zh-Hans");
  });

  it("the remembered choice comes next, and is not written again", () => {
    expect(visitorLanguage({ cookie: "fr", fixed: "es", acceptLanguage: "hi" })).toEqual({
      locale: "fr",
      unavailable: null,
      remember: null,
    });
  });

  it("then the group's fixed language, then the browser's", () => {
    expect(visitorLanguage({ fixed: "es", acceptLanguage: "hi" }).locale).toBe("es");
    expect(visitorLanguage({ acceptLanguage: "hi-IN,en;q=0.5" }).locale).toBe("hi");
    expect(visitorLanguage({}).locale).toBe("en");
  });

  it("a cookie holding anything but one of our locales is ignored", () => {
    for (const cookie of ["xx", "ja", "<script>", "", "en-US"]) {
      expect(visitorLanguage({ cookie, acceptLanguage: "de" }).locale, cookie).toBe("de");
    }
  });

  it.each([["xx"], ["<script>alert(1)</script>"], ["de\u0000"], ["a".repeat(500)], [""], ["%%"], ["*"]])(
    "an unknown ?lang= (%s) is ignored: no choice, nothing said back",
    (param) => {
      const chosen = visitorLanguage({ param, cookie: "fr", acceptLanguage: "de" });
      expect(chosen).toEqual({ locale: "fr", unavailable: null, remember: null });
    },
  );

  it("a ?lang= we do not have falls through the rule and is named in its own language", () => {
    expect(visitorLanguage({ param: "ja", acceptLanguage: "fr" })).toEqual({
      locale: "fr",
      unavailable: { tag: "ja", name: "日本語" },
      remember: null,
    });
    expect(visitorLanguage({ param: "ja-JP", cookie: "de" }).unavailable).toEqual({ tag: "ja-JP", name: "日本語" });
  });

  it("the browser's first choice, when we do not have it, is named; a later one we have is shown", () => {
    expect(visitorLanguage({ acceptLanguage: "ja,fr;q=0.8" })).toEqual({
      locale: "fr",
      unavailable: { tag: "ja", name: "日本語" },
      remember: null,
    });
    expect(visitorLanguage({ acceptLanguage: "ko-KR" }).unavailable?.name).toBe("한국어");
    // The group fixes German: still said, since the reader asked for Japanese.
    expect(visitorLanguage({ fixed: "de", acceptLanguage: "ja" })).toMatchObject({ locale: "de", unavailable: { tag: "ja" } });
  });

  it("nothing is said when the first choice is one we have, or chose to remember", () => {
    expect(visitorLanguage({ acceptLanguage: "en-GB,ja;q=0.9" }).unavailable).toBeNull();
    expect(visitorLanguage({ acceptLanguage: "pt-PT" }).unavailable).toBeNull();
    expect(visitorLanguage({ cookie: "en", acceptLanguage: "ja" }).unavailable).toBeNull();
    expect(visitorLanguage({ acceptLanguage: "xx-YY, *" }).unavailable).toBeNull();
    expect(visitorLanguage({ acceptLanguage: "" }).unavailable).toBeNull();
  });
});

describe("supportedLocaleFor / languageAutonym", () => {
  it("finds our locales from regional tags, nothing for others", () => {
    expect(supportedLocaleFor("de-CH")).toBe("de");
    expect(supportedLocaleFor("ja")).toBeNull();
    expect(supportedLocaleFor("not a tag")).toBeNull();
  });

  it("names a language in itself, and nothing it cannot name", () => {
    expect(languageAutonym("ja-JP")).toBe("日本語");
    expect(languageAutonym("he")).toBe("עברית");
    expect(languageAutonym("xx")).toBeNull();
    expect(languageAutonym("<b>")).toBeNull();
  });
});
