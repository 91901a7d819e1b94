// The wallet page's client parts (wallet-actions.tsx, the verification result) speak the page's
// language (./locale.ts); only the messages they use are sent along.
import { NextIntlClientProvider } from "next-intl";
import { messagesFor } from "@/lib/i18n/messages";
import { PublicFooter } from "@/app/public-footer";
import { walletLocale } from "./locale";

type Props = { children: React.ReactNode; params: Promise<{ publicId: string }> };

export default async function WalletLayout({ children, params }: Props) {
  const locale = await walletLocale((await params).publicId);
  const { wallet, walletPrivateSharing, verification, trustVerifier, trustFollowups, walletApp } = messagesFor(locale);
  return (
    <NextIntlClientProvider
      locale={locale}
      messages={{ wallet, walletPrivateSharing, verification, trustVerifier, trustFollowups, walletApp }}
      timeZone="UTC"
    >
      {children}
      <PublicFooter />
    </NextIntlClientProvider>
  );
}
