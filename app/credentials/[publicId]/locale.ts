// The language of a credential's public page: the visitor's choice (?lang=, else the remembered one),
// else the one its group fixes, else the reader's browser language (app/visitor-language.ts). Looked up
// once per request and shared by the root layout (<html lang dir>), the page, its metadata and the
// not-found page.
import { cache } from "react";
import { DEFAULT_LOCALE, isSupportedLocale, type Locale } from "@/lib/i18n/locales";
import type { VisitorLanguage } from "@/lib/i18n/visitor-language";
import { isRecipientOf } from "@/lib/wallet/recipient-credentials";
import { findWalletCredential } from "@/lib/wallet/service";
import { currentWalletSession } from "@/lib/wallet/session";
import { visitorLanguage } from "@/app/visitor-language";

/**
 * Whether the visitor is signed in to the wallet as this credential's recipient: then the page shows the
 * recipient's view without the email's `?recipient=true` (signing in is the recipient mark for every
 * credential of that email).
 */
export const isSignedInRecipient = cache(async (credentialId: string): Promise<boolean> => {
  const session = await currentWalletSession();
  return session !== null && (await isRecipientOf(session.email, credentialId));
});

/**
 * The credential behind the link, read once per request whoever asks (layout, metadata, page); null
 * (the 404 page, no OG tags) for a private one unless its signed-in recipient is looking.
 */
export const loadWalletCredential = cache(async (publicId: string) => {
  const credential = await findWalletCredential(publicId);
  if (credential?.visibility === "private" && !(await isSignedInRecipient(credential.id))) return null;
  return credential;
});

/** The page's language for this visitor, and what it says about a language asked for that we lack. */
export const walletLanguage = cache(async (publicId: string): Promise<VisitorLanguage> => {
  const credential = await loadWalletCredential(publicId);
  return visitorLanguage(credential?.language ?? null);
});

/** The page's language: the one value its text, its <html lang> and anything keyed on its language use. */
export const walletLocale = cache(async (publicId: string): Promise<Locale> => (await walletLanguage(publicId)).locale);

/**
 * The language of the credential's link previews (Open Graph and Twitter tags): its group's, else
 * English. Never the visitor's: a crawler carries no cookie, and one link's preview is the same for all.
 */
export function credentialLocale(credential: { language: string | null }): Locale {
  return isSupportedLocale(credential.language) ? credential.language : DEFAULT_LOCALE;
}
