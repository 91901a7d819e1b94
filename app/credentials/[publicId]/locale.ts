// The language of a credential's public page: the one its group fixes, else the reader's browser
// language (Accept-Language; English when none of ours matches). Looked up once per request and
// shared by the root layout (<html lang dir>), the page, its metadata and the not-found page.
import { headers } from "next/headers";
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { readerLocale } from "@/lib/i18n/negotiation";
import { findWalletCredential } from "@/lib/wallet/service";

/** The credential behind the link, read once per request whoever asks (layout, metadata, page). */
export const loadWalletCredential = cache(findWalletCredential);

export const walletLocale = cache(async (publicId: string): Promise<Locale> => {
  const credential = await loadWalletCredential(publicId);
  return readerLocale(credential?.language, (await headers()).get("accept-language"));
});
