// The languages the wallet page and the credential email are written in, and how a reader's language
// is chosen among them. One list for every face: a group may fix one of these, a browser asks for any.
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";

export const SUPPORTED_LOCALES = ["en", "es", "fr", "de", "pt-BR", "ar", "zh-Hans", "hi"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language's own name, for pickers (shown in that language so a reader finds theirs). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
  ar: "العربية",
  "zh-Hans": "中文（简体）",
  hi: "हिन्दी",
};

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set<Locale>(["ar"]);

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

export function textDirection(locale: Locale): "rtl" | "ltr" {
  return RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr";
}

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
