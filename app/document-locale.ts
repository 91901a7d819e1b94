// The language of the HTML document a request renders, for the root layout's <html lang dir>: a
// credential's wallet page (and its not-found page), the recipient's wallet, a public profile and
// /verify speak their reader's language (app/visitor-language.ts); everything else (dashboard,
// sign-in, docs) is English. The root layout cannot see its child segment's params, so server.ts hands
// the request path over (a client's own header of that name is replaced).
import { headers } from "next/headers";
import { REQUEST_PATH_HEADER } from "@/lib/api/request-target";
import { announcePageLanguage } from "@/lib/http-server/page-language";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/locales";
import { walletLocale } from "./credentials/[publicId]/locale";
import { profileLocale } from "./profiles/[handle]/locale";
import { verifyLocale } from "./verify/locale";
import { recipientWalletLocale } from "./wallet/locale";

const WALLET_PAGE = /^\/credentials\/([^/?#]+)\/?$/;
const RECIPIENT_WALLET = /^\/wallet(?:\/|$)/;
const PROFILE_PAGE = /^\/profiles\/[^/?#]+\/?$/;
const VERIFY_PAGE = /^\/verify\/?$/;

export async function documentLocale(): Promise<Locale> {
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "";
  if (RECIPIENT_WALLET.test(path)) return recipientWalletLocale();
  // A recipient's public profile speaks its reader's language too.
  if (PROFILE_PAGE.test(path)) return profileLocale();
  if (VERIFY_PAGE.test(path)) return verifyLocale();
  const publicId = WALLET_PAGE.exec(path)?.[1];
  let id: string | null = null;
  try {
    id = publicId ? decodeURIComponent(publicId) : null;
  } catch {
    id = null;
  }
  if (id !== null) return walletLocale(id);
  announcePageLanguage({ locale: DEFAULT_LOCALE, followsVisitor: false, remember: null });
  return DEFAULT_LOCALE;
}
