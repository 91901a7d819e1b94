// Which language a public page (a credential's wallet page, /verify, the recipient's wallet, a public
// profile) is shown in, and what it tells a visitor who asked for one we do not have. One rule for every
// such page, and for anything that keys on a page's language (a cache of rendered pages):
//
//   ?lang= in the link  >  the visitor's remembered choice (a cookie)  >  the language a credential's
//   group fixes  >  the browser's Accept-Language  >  English.
//
// An explicit choice (a link's ?lang=, the switch, which is such a link) beats the issuer's fixed
// language: it is the visitor's. A value that is not a language we can name (garbage, a script tag) is
// ignored as if absent; it is never echoed back.
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { isSupportedLocale, SUPPORTED_LOCALES, type Locale } from "./locales";
import { localeFromAcceptLanguage } from "./negotiation";

/** The longest language tag worth parsing (BCP 47 tags in use are far shorter). */
const MAX_TAG_LENGTH = 35;

export type VisitorLanguageInput = {
  /** The `lang` query parameter, as sent (null when absent). */
  param?: string | null;
  /** The remembered choice's cookie value (null when absent). */
  cookie?: string | null;
  /** The language the credential's group fixes, if any. */
  fixed?: string | null;
  acceptLanguage?: string | null;
};

export type VisitorLanguage = {
  /** The language the page is shown in. */
  locale: Locale;
  /**
   * The language the visitor asked for (by ?lang=, else as their browser's first choice) when we do not
   * have it and the page says so: its tag and its name in itself ("日本語"). Null otherwise.
   */
  unavailable: { tag: string; name: string } | null;
  /** The locale to remember for this visitor (a ?lang= that selected one), else null. */
  remember: Locale | null;
};

/** A well-formed language tag in its canonical form, or null. */
function canonicalTag(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value === "" || value.length > MAX_TAG_LENGTH) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** The supported locale a language tag finds (`es-MX` finds `es`, `zh-CN` finds `zh-Hans`), or null. */
export function supportedLocaleFor(tag: string): Locale | null {
  const canonical = canonicalTag(tag);
  if (canonical === null) return null;
  try {
    const found = match([canonical], [...SUPPORTED_LOCALES], "none");
    return isSupportedLocale(found) ? found : null;
  } catch {
    return null;
  }
}

/**
 * A language's name in that language ("日本語", "Deutsch"), from its language subtag (and script, when
 * the tag names one), or null when it is no language the runtime can name: such a tag is not said back.
 */
export function languageAutonym(tag: string): string | null {
  const canonical = canonicalTag(tag);
  if (canonical === null) return null;
  try {
    const parsed = new Intl.Locale(canonical);
    const base = parsed.script ? `${parsed.language}-${parsed.script}` : parsed.language;
    const name = new Intl.DisplayNames([base], { type: "language", fallback: "none" }).of(base);
    return name && name !== base ? name : null;
  } catch {
    return null;
  }
}

/** A tag we can name but have no locale for: what the page's fallback line speaks of. */
function unavailableLanguage(tag: string | null): VisitorLanguage["unavailable"] {
  if (tag === null || supportedLocaleFor(tag) !== null) return null;
  const name = languageAutonym(tag);
  return name === null ? null : { tag: canonicalTag(tag)!, name };
}

/** The browser's first choice among well-formed tags (`*` and malformed entries skipped), or null. */
function firstChoice(acceptLanguage: string | null | undefined): string | null {
  if (!acceptLanguage) return null;
  for (const tag of new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages()) {
    const canonical = canonicalTag(tag);
    if (canonical !== null) return canonical;
  }
  return null;
}

/** The language of a public page for one visitor; see the rule at the top of this file. */
export function visitorLanguage(input: VisitorLanguageInput): VisitorLanguage {
  const param = canonicalTag(input.param);
  const selected = param === null ? null : supportedLocaleFor(param);
  if (selected !== null) return { locale: selected, unavailable: null, remember: selected };
  // A ?lang= we can name but do not have is said plainly; one we cannot name is ignored.
  const askedByLink = unavailableLanguage(param);
  if (isSupportedLocale(input.cookie)) return { locale: input.cookie, unavailable: askedByLink, remember: null };
  const locale = isSupportedLocale(input.fixed) ? input.fixed : localeFromAcceptLanguage(input.acceptLanguage);
  return { locale, unavailable: askedByLink ?? unavailableLanguage(firstChoice(input.acceptLanguage)), remember: null };
}
