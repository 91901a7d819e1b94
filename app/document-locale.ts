// The language of the HTML document a request renders, for the root layout's <html lang dir>: a
// credential's wallet page (and its not-found page) speaks its reader's language; everything else
// (dashboard, sign-in, docs, /verify) is English. The root layout cannot see its child segment's
// params, so server.ts hands the request path over (a client's own header of that name is replaced).
import { headers } from "next/headers";
import { REQUEST_PATH_HEADER } from "@/lib/api/request-target";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/locales";
import { walletLocale } from "./credentials/[publicId]/locale";
import { recipientWalletLocale } from "./wallet/locale";

const WALLET_PAGE = /^\/credentials\/([^/?#]+)\/?$/;
const RECIPIENT_WALLET = /^\/wallet(?:\/|$)/;

export async function documentLocale(): Promise<Locale> {
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "";
  if (RECIPIENT_WALLET.test(path)) return recipientWalletLocale();
  const publicId = WALLET_PAGE.exec(path)?.[1];
  if (!publicId) return DEFAULT_LOCALE;
  let id: string;
  try {
    id = decodeURIComponent(publicId);
  } catch {
    return DEFAULT_LOCALE;
  }
  return walletLocale(id);
}
