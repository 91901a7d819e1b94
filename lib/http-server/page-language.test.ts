import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { announcePageLanguage, mergedVary, pageLanguageHeaders, withPageLanguage, type PageLanguage } from "./page-language";

describe("pageLanguageHeaders", () => {
  it("a page following its visitor varies on Accept-Language and Cookie", () => {
    expect(pageLanguageHeaders({ locale: "de", followsVisitor: true, remember: null }, false)).toEqual({
      contentLanguage: "de",
      vary: ["Accept-Language", "Cookie"],
      setCookie: null,
    });
  });

  it("an English-only page says its language and varies on nothing", () => {
    expect(pageLanguageHeaders({ locale: "en", followsVisitor: false, remember: null }, false)).toEqual({
      contentLanguage: "en",
      vary: [],
      setCookie: null,
    });
  });

  it("a ?lang= choice is remembered for a year, site-wide, SameSite=Lax, Secure over HTTPS", () => {
    const { setCookie } = pageLanguageHeaders({ locale: "pt-BR", followsVisitor: true, remember: "pt-BR" }, true);
    expect(setCookie).toBe("cis.lang=pt-BR; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
    expect(pageLanguageHeaders({ locale: "ar", followsVisitor: true, remember: "ar" }, false).setCookie).not.toContain("Secure");
  });
});

describe("mergedVary", () => {
  it("appends each token once, keeping what Next set", () => {
    expect(mergedVary("rsc, Next-Router-State-Tree, Accept-Encoding", ["Accept-Language", "Cookie"])).toBe(
      "rsc, Next-Router-State-Tree, Accept-Encoding, Accept-Language, Cookie",
    );
    expect(mergedVary(["cookie", "accept-language"], ["Accept-Language", "Cookie"])).toBe("cookie, accept-language");
    expect(mergedVary(undefined, ["Cookie"])).toBe("Cookie");
  });
});

describe("withPageLanguage", () => {
  let server: Server | null = null;
  afterEach(() => server?.close());

  /** A server whose handler announces `language` (after some awaits, as a page does) unless null, then answers. */
  async function get(language: PageLanguage | null, presetVary?: string) {
    server = createServer((_req, res) => {
      void withPageLanguage(res, false, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await Promise.resolve();
        if (language) announcePageLanguage(language);
        if (presetVary) res.setHeader("Vary", presetVary);
        res.setHeader("Set-Cookie", "other=1");
        res.end("<html>");
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request({ port, host: "127.0.0.1", path: "/" }, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on("error", reject)
        .end();
    });
  }

  it("adds what the page announced in its own request's async context to the response's head", async () => {
    const headers = await get({ locale: "fr", followsVisitor: true, remember: "fr" }, "rsc");
    expect(headers["content-language"]).toBe("fr");
    expect(headers.vary).toBe("rsc, Accept-Language, Cookie");
    expect(headers["set-cookie"]).toEqual(["other=1", "cis.lang=fr; Path=/; Max-Age=31536000; SameSite=Lax"]);
  });

  it("adds nothing when nothing was announced", async () => {
    const headers = await get(null);
    expect(headers["content-language"]).toBeUndefined();
    expect(headers["set-cookie"]).toEqual(["other=1"]);
  });

  it("outside a request, announcing is a no-op", () => {
    expect(() => announcePageLanguage({ locale: "en", followsVisitor: false, remember: null })).not.toThrow();
  });
});
