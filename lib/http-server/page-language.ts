// The response headers that follow from the language a page chose: Content-Language, Vary (a page whose
// language follows its visitor varies on Accept-Language and the language cookie), and the cookie that
// remembers a visitor's ?lang= choice. A page decides its language while it renders, long after this
// server set the other headers and handed the request to Next, and Next gives pages no way to set a
// response header: so server.ts runs each request with a slot (per request, in async context), the
// page's language resolution fills it in (announcePageLanguage), and the headers are added when the
// response's head goes out, which for a page is after its root layout has chosen the language.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerResponse } from "node:http";
import type { Locale } from "@/lib/i18n/locales";
import { languageCookie } from "@/lib/i18n/language-cookie";

export type PageLanguage = {
  locale: Locale;
  /** Whether the language follows the visitor (Accept-Language, the cookie, ?lang=) rather than being fixed. */
  followsVisitor: boolean;
  /** A locale to remember for the visitor (a ?lang= that chose it), else null. */
  remember: Locale | null;
};

type Slot = { language: PageLanguage | null };

// Next bundles the app's modules apart from server.ts's: one storage for both, found by a global name.
const STORAGE_KEY = Symbol.for("cis.page-language");
const globalSlot = globalThis as unknown as Record<symbol, AsyncLocalStorage<Slot> | undefined>;
const storage: AsyncLocalStorage<Slot> = (globalSlot[STORAGE_KEY] ??= new AsyncLocalStorage<Slot>());

/** Called by the page's language resolution (once per request): what the response's headers will say. */
export function announcePageLanguage(language: PageLanguage): void {
  const slot = storage.getStore();
  if (slot) slot.language = language;
}

/** The headers a page's language adds; a pure function of it (tested without a server). */
export function pageLanguageHeaders(
  language: PageLanguage,
  https: boolean,
): { contentLanguage: string; vary: string[]; setCookie: string | null } {
  return {
    contentLanguage: language.locale,
    vary: language.followsVisitor ? ["Accept-Language", "Cookie"] : [],
    setCookie: language.remember ? languageCookie(language.remember, https) : null,
  };
}

/** `current` (a Vary header's value, if any) with `added` appended, each token once (case-insensitive). */
export function mergedVary(current: string | number | string[] | undefined, added: string[]): string {
  const tokens = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  for (const token of added) if (!tokens.some((t) => t.toLowerCase() === token.toLowerCase())) tokens.push(token);
  return tokens.join(", ");
}

/** Runs `handle` (the request's handling by Next) with a slot for its page's language, applied to `res`'s head. */
export function withPageLanguage<T>(res: ServerResponse, https: boolean, handle: () => T): T {
  const slot: Slot = { language: null };
  const writeHead = res.writeHead.bind(res);
  // Node sends an implicit head through writeHead too, so this sees every response's head once.
  res.writeHead = function (...args: Parameters<ServerResponse["writeHead"]>) {
    if (slot.language !== null && !res.headersSent) {
      const headers = pageLanguageHeaders(slot.language, https);
      res.setHeader("Content-Language", headers.contentLanguage);
      if (headers.vary.length > 0) res.setHeader("Vary", mergedVary(res.getHeader("Vary"), headers.vary));
      if (headers.setCookie !== null) {
        const existing = res.getHeader("Set-Cookie");
        const cookies = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
        res.setHeader("Set-Cookie", [...cookies, headers.setCookie]);
      }
    }
    return writeHead(...args);
  } as ServerResponse["writeHead"];
  return storage.run(slot, handle);
}
