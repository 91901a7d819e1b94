// How a reader's language is chosen among the supported ones from what their browser asks for.
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { DEFAULT_LOCALE, isSupportedLocale, SUPPORTED_LOCALES, type Locale } from "./locales";

/** A well-formed BCP 47 tag, or null: `*`, empty and malformed entries of a header are skipped. */
function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The supported language closest to what an `Accept-Language` header asks for, in its order of
 * preference (`pt-PT` finds `pt-BR`, `zh-CN` finds `zh-Hans`); English when nothing matches or the
 * header is missing or malformed.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const requested = new Negotiator({ headers: { "accept-language": header } })
    .languages()
    .map(canonicalTag)
    .filter((tag): tag is string => tag !== null);
  if (requested.length === 0) return DEFAULT_LOCALE;
  try {
    const found = match(requested, [...SUPPORTED_LOCALES], DEFAULT_LOCALE);
    return isSupportedLocale(found) ? found : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}
