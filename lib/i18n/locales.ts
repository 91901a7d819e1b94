// The languages the wallet page and the credential email are written in. One list for every face: a
// group may fix one of these, a browser asks for any (negotiation.ts picks among them). No
// dependencies, so client components (the dashboard's language picker) can import it.

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

/** The tag `Intl` formats dates with: English is US English ("March 5, 2026", as before languages existed). */
export function intlLocale(locale: Locale): string {
  return locale === "en" ? "en-US" : locale;
}
