// The language part of a cached public page's key: the language the page will be in for this request,
// worked out by the same rule the page itself follows (lib/i18n/visitor-language.ts: the remembered
// choice, the group's fixed language, Accept-Language), and whether the page will say that a language
// the visitor asked for is missing (that line is part of the page too). A ?lang= link never reaches
// the cache (the parameter is not one it ignores), so only the cookie and the headers count here.
import type { Locale } from "../i18n/locales";
import { LANGUAGE_COOKIE } from "../i18n/language-cookie";
import { visitorLanguage } from "../i18n/visitor-language";

export type PageLanguageKey = { locale: Locale; key: string };

/**
 * A cookie's value in a Cookie header, read as Next reads it for the page (its request cookies): pairs
 * split on "; ", names and values not trimmed, values percent-decoded, one that cannot be decoded
 * skipped, and the last of a name winning. The cache and the page must read the same choice.
 */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  let found: string | null = null;
  for (const pair of (header ?? "").split(/; */)) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    if ((at === -1 ? pair : pair.slice(0, at)) !== name) continue;
    if (at === -1) {
      found = "true";
      continue;
    }
    try {
      found = decodeURIComponent(pair.slice(at + 1));
    } catch {
      // Next leaves such a value out; an earlier one of the same name stands.
    }
  }
  return found;
}

/** `fixed`: the language a credential's group fixes (null for a profile, which no group speaks for). */
export function pageLanguageKey(
  fixed: string | null | undefined,
  cookieHeader: string | null | undefined,
  acceptLanguage: string | null | undefined,
): PageLanguageKey {
  const chosen = visitorLanguage({ param: null, cookie: cookieValue(cookieHeader, LANGUAGE_COOKIE), fixed: fixed ?? null, acceptLanguage });
  return { locale: chosen.locale, key: chosen.unavailable ? `${chosen.locale};unavailable=${chosen.unavailable.tag}` : chosen.locale };
}
