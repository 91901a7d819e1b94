// The language of the public pages over HTTP (docs/wallet.md, Languages): a link's ?lang= selects one
// of the eight languages and is remembered (cookie cis.lang, SameSite=Lax); then the remembered choice,
// the group's fixed language, Accept-Language, English. A language we lack is said plainly in the
// language shown; an unknown ?lang= is ignored and never said back. The response says its language
// (Content-Language, <html lang>) and that it varies with Accept-Language and Cookie. Link previews
// stay in the credential's language.
import type { APIResponse } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup } from "../support/api-helpers";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";

test.describe.configure({ timeout: 90_000 });

const GERMAN_PILL = "Signatur gültig";
const FRENCH_PILL = "Signature valide";
const ENGLISH_PILL = "Signature valid · issued by";

function htmlLang(html: string): string | undefined {
  return /<html lang="([^"]+)"/.exec(html)?.[1];
}

function metaContent(html: string, property: string): string | undefined {
  return new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];
}

function varyTokens(response: APIResponse): string[] {
  return (response.headers()["vary"] ?? "").split(",").map((t) => t.trim().toLowerCase());
}

function languageCookieOf(response: APIResponse): string | undefined {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value)
    .find((v) => v.startsWith("cis.lang="));
}

test.describe("the wallet page", () => {
  test("?lang= selects the language, says so in its headers and is remembered", async ({ api, client }) => {
    const group = await walletGroup(api, { name: "Language Course" });
    const credential = await issueCredential(api, group.id, { name: "Ana Lima" });
    const guest = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "en-US" } });
    const path = `/credentials/${credential.publicId}`;

    const german = await guest.get(`${path}?lang=de`);
    expect(german.status()).toBe(200);
    const html = await german.text();
    expect(htmlLang(html)).toBe("de");
    expect(html).toContain(GERMAN_PILL);
    expect(german.headers()["content-language"]).toBe("de");
    expect(varyTokens(german)).toEqual(expect.arrayContaining(["accept-language", "cookie"]));
    // Over HTTPS (the test servers trust X-Forwarded-Proto): Secure; a year; the whole site; Lax.
    const cookie = languageCookieOf(german);
    expect(cookie).toBeDefined();
    expect(cookie!.split("; ").sort()).toEqual(["Max-Age=31536000", "Path=/", "SameSite=Lax", "Secure", "cis.lang=de"]);
    // The switch's links: each language in its own name, the current one marked.
    expect(html).toContain(">Deutsch</a>");
    expect(html).toContain(">العربية</a>");
    expect(html).toMatch(/aria-current="true"[^>]*>Deutsch</);

    // A visitor who never chose (no cookie) gets the browser's language on the plain link.
    const other = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "en-US" } });
    const plain = await other.get(path);
    expect(htmlLang(await plain.text())).toBe("en");
    expect(plain.headers()["content-language"]).toBe("en");
    expect(languageCookieOf(plain)).toBeUndefined();
  });

  test("the remembered choice beats Accept-Language and the group's language; ?lang= beats it", async ({ api, client }) => {
    const design = await createDesign(api, "certificate");
    const group = await createGroup(api, { designIds: [design.id], name: "Datenanalyse", language: "de" });
    const credential = await issueCredential(api, group.id, { name: "Erika Mustermann" });
    const path = `/credentials/${credential.publicId}`;
    const headers = { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "es" };

    // The group's fixed German beats the Spanish browser.
    const guest = await client({ headers });
    const fixed = await guest.get(path);
    expect(htmlLang(await fixed.text())).toBe("de");

    // A remembered French choice beats both, and is not written again.
    const remembered = await client({ headers: { ...headers, Cookie: "cis.lang=fr" } });
    const french = await remembered.get(path);
    const frenchHtml = await french.text();
    expect(htmlLang(frenchHtml)).toBe("fr");
    expect(frenchHtml).toContain(FRENCH_PILL);
    expect(french.headers()["content-language"]).toBe("fr");
    expect(languageCookieOf(french)).toBeUndefined();
    // The credential's own words stay as the issuer wrote them.
    expect(frenchHtml).toContain(">Datenanalyse</bdi>");
    // Link previews stay in the credential's language (a crawler carries no cookie); the title is the page's.
    expect(metaContent(frenchHtml, "og:locale")).toBe("de");
    expect(metaContent(frenchHtml, "og:description")).toContain("Erika Mustermann");

    // ?lang= beats the remembered choice.
    const hindi = await remembered.get(`${path}?lang=hi`);
    expect(htmlLang(await hindi.text())).toBe("hi");
    expect(languageCookieOf(hindi)).toMatch(/^cis\.lang=hi;/);

    // A cookie naming no language of ours is ignored.
    const junk = await client({ headers: { ...headers, Cookie: "cis.lang=%3Cscript%3E" } });
    expect(htmlLang(await (await junk.get(path)).text())).toBe("de");
  });

  test("a browser context remembers a ?lang= link's choice on its next visits", async ({ api, client }) => {
    const group = await walletGroup(api, { name: "Remembered Course" });
    const credential = await issueCredential(api, group.id, { name: "Lea Weber" });
    const guest = await client({ https: false, headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "en" } });
    const path = `/credentials/${credential.publicId}`;
    const chosen = await guest.get(`${path}?lang=fr`);
    expect(languageCookieOf(chosen)).not.toContain("Secure");
    const again = await guest.get(path);
    expect(htmlLang(await again.text())).toBe("fr");
    expect(again.headers()["content-language"]).toBe("fr");
  });

  test("a language we do not have is said plainly, in the language shown, naming the one asked for", async ({ api, client }) => {
    const group = await walletGroup(api, { name: "Fallback Course" });
    const credential = await issueCredential(api, group.id, { name: "Yuki Tanaka" });
    const path = `/credentials/${credential.publicId}`;

    const japanese = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "ja-JP,ja;q=0.9" } });
    const english = await (await japanese.get(path)).text();
    expect(htmlLang(english)).toBe("en");
    expect(english).toContain("This page is not available in 日本語; it is shown in English.");

    // The browser's next choice that we have is shown, and the line is in it.
    const thenFrench = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "ja, fr;q=0.8" } });
    const french = await (await thenFrench.get(path)).text();
    expect(htmlLang(french)).toBe("fr");
    expect(french).toContain("Cette page n’est pas disponible en 日本語 ; elle est affichée en français.");

    // A link's ?lang=ko we lack: the line names Korean; nothing is remembered.
    const guest = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "de" } });
    const korean = await guest.get(`${path}?lang=ko`);
    const koreanHtml = await korean.text();
    expect(htmlLang(koreanHtml)).toBe("de");
    expect(koreanHtml).toContain("Diese Seite ist nicht auf 한국어 verfügbar; sie wird auf Deutsch angezeigt.");
    expect(languageCookieOf(korean)).toBeUndefined();

    // A first choice we have: no line.
    const german = await (await guest.get(path)).text();
    expect(german).not.toContain('data-testid="language-fallback"');
  });

  test("an unknown ?lang= is ignored: no error, nothing remembered, nothing said back", async ({ api, client }) => {
    const group = await walletGroup(api, { name: "Hostile Course" });
    const credential = await issueCredential(api, group.id, { name: "Sam Doe" });
    const guest = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "en-GB" } });
    const path = `/credentials/${credential.publicId}`;
    for (const value of [
      "xx",
      "<script>alert(1)</script>",
      '"><img src=x onerror=alert(1)>',
      "de\u0000",
      "a".repeat(4000),
      "",
      "%ZZ",
      "*",
    ]) {
      const response = await guest.get(`${path}?lang=${encodeURIComponent(value)}`);
      expect(response.status(), value).toBe(200);
      const html = await response.text();
      expect(htmlLang(html), value).toBe("en");
      expect(html).toContain(ENGLISH_PILL);
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain('data-testid="language-fallback"');
      expect(languageCookieOf(response), value).toBeUndefined();
    }
    // Two values: the first counts, as for every query parameter.
    const twice = await guest.get(`${path}?lang=es&lang=de`);
    expect(htmlLang(await twice.text())).toBe("es");
  });
});

test.describe("/verify", () => {
  test("follows ?lang=, the remembered choice and Accept-Language, with the fallback line", async ({ client }) => {
    const guest = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "en" } });
    const spanish = await guest.get("/verify?lang=es");
    expect(spanish.status()).toBe(200);
    const html = await spanish.text();
    expect(htmlLang(html)).toBe("es");
    expect(html).toContain("<h1");
    expect(html).toContain("Verificar una credencial");
    expect(html).toContain("Enlace o JSON de la credencial");
    expect(spanish.headers()["content-language"]).toBe("es");
    expect(varyTokens(spanish)).toEqual(expect.arrayContaining(["accept-language", "cookie"]));
    expect(languageCookieOf(spanish)).toMatch(/^cis\.lang=es;/);

    const arabic = await client({ headers: { "X-Forwarded-For": uniqueAddress(), Cookie: "cis.lang=ar", "Accept-Language": "de" } });
    const arabicHtml = await (await arabic.get("/verify")).text();
    expect(arabicHtml).toMatch(/<html lang="ar" dir="rtl"/);
    expect(arabicHtml).toContain("التحقق من شهادة");

    const japanese = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "ja" } });
    const fallback = await japanese.get("/verify?lang=%3Cb%3E");
    const fallbackHtml = await fallback.text();
    expect(htmlLang(fallbackHtml)).toBe("en");
    expect(fallbackHtml).toContain("This page is not available in 日本語; it is shown in English.");
    expect(fallbackHtml).not.toContain("<b>");
    expect(languageCookieOf(fallback)).toBeUndefined();
  });
});

test("the dashboard's pages stay English and do not vary by language", async ({ client }) => {
  const guest = await client({ headers: { "X-Forwarded-For": uniqueAddress(), "Accept-Language": "de", Cookie: "cis.lang=fr" } });
  const signin = await guest.get("/signin?lang=es");
  expect(signin.status()).toBe(200);
  expect(htmlLang(await signin.text())).toBe("en");
  expect(signin.headers()["content-language"]).toBe("en");
  expect(varyTokens(signin)).not.toContain("accept-language");
  expect(languageCookieOf(signin)).toBeUndefined();
});
