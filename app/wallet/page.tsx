import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { currentWalletSession } from "@/lib/wallet/session";
import { recipientWalletLocale } from "./locale";
import { WalletSignInForm } from "./sign-in-form";
import styles from "./wallet.module.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await recipientWalletLocale(), namespace: "recipientWallet" });
  return { title: t("metaTitle"), robots: { index: false } };
}

// {WALLET_URL}/wallet: the recipient's own space. Signed out, the sign-in form; signed in, every
// credential addressed to their email across organizations.
export default async function RecipientWalletPage() {
  const locale = await recipientWalletLocale();
  const t = await getTranslations({ locale, namespace: "recipientWallet" });
  const session = await currentWalletSession();
  if (!session) {
    return (
      <main className={styles.narrow}>
        <div className={styles.card}>
          <h1 className={styles.title}>{t("signInHeading")}</h1>
          <p className={styles.sub}>{t("signInIntro")}</p>
          <WalletSignInForm />
        </div>
      </main>
    );
  }
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{t("heading")}</h1>
          <p className={styles.sub} data-testid="wallet-signed-in-as">
            {t("signedInAs", { email: session.email })}
          </p>
        </div>
        <form method="post" action="/api/wallet/sign-out">
          <button className={styles.secondary} type="submit" data-testid="wallet-sign-out">
            {t("signOut")}
          </button>
        </form>
      </header>
    </main>
  );
}
