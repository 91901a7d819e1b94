// The recipient's wallet speaks its reader's language (./locale.ts); its client parts get only the
// messages they use.
import { NextIntlClientProvider } from "next-intl";
import { messagesFor } from "@/lib/i18n/messages";
import { PublicFooter } from "@/app/public-footer";
import { LanguageBar } from "@/app/language-bar";
import { recipientWalletLanguage } from "./locale";

export default async function RecipientWalletLayout({ children }: { children: React.ReactNode }) {
  const language = await recipientWalletLanguage();
  const locale = language.locale;
  const { recipientWallet, walletProfile, walletApp } = messagesFor(locale);
  return (
    <NextIntlClientProvider locale={locale} messages={{ recipientWallet, walletProfile, walletApp }} timeZone="UTC">
      <LanguageBar language={language} />
      {children}
      <PublicFooter />
    </NextIntlClientProvider>
  );
}
