// The wallet page's client parts (wallet-actions.tsx, the verification result) speak the page's
// language (./locale.ts); only the messages they use are sent along. The language switch heads the page.
import { NextIntlClientProvider } from "next-intl";
import { messagesFor } from "@/lib/i18n/messages";
import { PublicFooter } from "@/app/public-footer";
import { LanguageBar } from "@/app/language-bar";
import { walletLanguage } from "./locale";

type Props = { children: React.ReactNode; params: Promise<{ publicId: string }> };

export default async function WalletLayout({ children, params }: Props) {
  const language = await walletLanguage((await params).publicId);
  const locale = language.locale;
  const { wallet, walletPrivateSharing, verification, trustVerifier, trustFollowups, walletApp } = messagesFor(locale);
  return (
    <NextIntlClientProvider
      locale={locale}
      messages={{ wallet, walletPrivateSharing, verification, trustVerifier, trustFollowups, walletApp }}
      timeZone="UTC"
    >
      <LanguageBar language={language} />
      {children}
      <PublicFooter />
    </NextIntlClientProvider>
  );
}
