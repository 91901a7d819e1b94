// The language of the public pages that speak their reader's language, in one place for the page that
// renders it and for the cache of rendered pages (lib/http-server/public-faces.ts), which keys on the
// language the page will be in: both must read a request the same way.
import type { Locale } from "../i18n/locales";
import { readerLocale } from "../i18n/negotiation";

/** A credential's wallet page: the language its group fixes, else the reader's (Accept-Language). */
export function walletPageLocale(groupLanguage: string | null | undefined, acceptLanguage: string | null | undefined): Locale {
  return readerLocale(groupLanguage, acceptLanguage);
}

/** A recipient's public profile: the reader's (it gathers credentials of several groups, so no group's language speaks for it). */
export function profilePageLocale(acceptLanguage: string | null | undefined): Locale {
  return readerLocale(null, acceptLanguage);
}
