// The language of a credential's public page: the one its group fixes, else the reader's browser
// language (Accept-Language; English when none of ours matches). Looked up once per request and
// shared by the root layout (<html lang dir>), the page, its metadata and the not-found page.
import { headers } from "next/headers";
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { walletPageLocale } from "@/lib/public-faces/page-locale";
import { isRecipientOf } from "@/lib/wallet/recipient-credentials";
import { findWalletCredential } from "@/lib/wallet/service";
import { currentWalletSession } from "@/lib/wallet/session";

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

/** The page's language; the cache of rendered pages keys on the same function (lib/public-faces/page-locale.ts). */
export const walletLocale = cache(async (publicId: string): Promise<Locale> => {
  const credential = await loadWalletCredential(publicId);
  return walletPageLocale(credential?.language, (await headers()).get("accept-language"));
});
