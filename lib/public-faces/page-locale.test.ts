// The cache of rendered pages keys on the language the page will be in: these are the readings of a
// request that must give different keys (or the same one) for the cache never to answer a page in the
// wrong language, or with the wrong "not available in …" line.
import { describe, expect, it } from "vitest";
import { cookieValue, pageLanguageKey } from "./page-locale";

describe("the language part of a cached page's key", () => {
  it("follows the remembered choice over the group's language and Accept-Language, as the page does", () => {
    expect(pageLanguageKey(null, null, "de-DE,de;q=0.9").locale).toBe("de");
    expect(pageLanguageKey(null, "cis.lang=es", "de-DE,de;q=0.9").locale).toBe("es");
    expect(pageLanguageKey("fr", null, "de-DE").locale).toBe("fr");
    expect(pageLanguageKey("fr", "other=1; cis.lang=es", "de-DE").locale).toBe("es");
  });

  it("reads a percent-encoded cookie as Next reads it for the page", () => {
    expect(cookieValue("cis.lang=%64e", "cis.lang")).toBe("de");
    expect(pageLanguageKey(null, "cis.lang=%64e", "en").locale).toBe("de");
    expect(cookieValue("cis.lang=%E0%A4", "cis.lang")).toBeNull();
  });

  it("reads duplicates, spaces and undecodable values exactly as Next does: the last readable one wins", () => {
    expect(cookieValue("cis.lang=fr; cis.lang=de", "cis.lang")).toBe("de");
    expect(cookieValue("cis.lang=fr; cis.lang=%E0%A4", "cis.lang")).toBe("fr");
    expect(cookieValue("cis.lang=fr;cis.lang=de", "cis.lang")).toBe("de");
    expect(cookieValue(" cis.lang=de", "cis.lang")).toBeNull();
    expect(cookieValue("cis.lang= de", "cis.lang")).toBe(" de");
    expect(pageLanguageKey(null, "cis.lang=fr; cis.lang=de", "en").locale).toBe("de");
  });

  it("keeps a page that says a language is missing apart from the same language's plain page", () => {
    const plain = pageLanguageKey(null, null, "en");
    const japanese = pageLanguageKey(null, null, "ja");
    expect(japanese.locale).toBe(plain.locale);
    expect(japanese.key).not.toBe(plain.key);
    expect(japanese.key).toContain("ja");
  });

  it("ignores a cookie that names no language we have, like the page", () => {
    expect(pageLanguageKey(null, "cis.lang=<script>", "de").key).toBe("de");
  });
});
