// The recipient's wallet speaks its reader's language (./locale.ts); its client parts get only the
// messages they use.
import { NextIntlClientProvider } from "next-intl";
import { messagesFor } from "@/lib/i18n/messages";
import { PublicFooter } from "@/app/public-footer";
import { recipientWalletLocale } from "./locale";

export default async function RecipientWalletLayout({ children }: { children: React.ReactNode }) {
  const locale = await recipientWalletLocale();
  const { recipientWallet } = messagesFor(locale);
  return (
    <NextIntlClientProvider locale={locale} messages={{ recipientWallet }} timeZone="UTC">
      {children}
      <PublicFooter />
    </NextIntlClientProvider>
  );
}
