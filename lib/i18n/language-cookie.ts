// The cookie that remembers a visitor's language choice, written by the server (a ?lang= link) and by
// the language switch's script (switching in place): one definition for both. No dependencies, so the
// switch's client bundle stays small. It holds one of our locale tags, nothing about the person.
import type { Locale } from "./locales";

/** The query parameter a link names its language with (`?lang=de`). */
export const LANGUAGE_PARAM = "lang";
export const LANGUAGE_COOKIE = "cis.lang";
/** A year, renewed by every new choice. */
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The Set-Cookie value (and `document.cookie` assignment) remembering `locale`: the whole site (every
 * language-following page shares the choice), SameSite=Lax so that a link from elsewhere still carries
 * it, Secure over HTTPS. Not HttpOnly: the switch's script writes the same cookie.
 */
export function languageCookie(locale: Locale, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${locale}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
