import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { walletSignInLinkIsValid } from "@/lib/wallet/sign-in-link";
import styles from "../wallet.module.css";
import { recipientWalletLocale } from "../locale";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await recipientWalletLocale(), namespace: "recipientWallet" });
  // The token is in the address: no other site is told it through a Referer header.
  return { title: t("linkHeading"), referrer: "no-referrer", robots: { index: false } };
}

// The emailed link's page. Opening it uses nothing up (mail scanners open links): the button posts the
// token, and only that signs in (app/api/wallet/sign-in/link/route.ts). A plain form: no script needed.
export default async function WalletSignInLinkPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const locale = await recipientWalletLocale();
  const t = await getTranslations({ locale, namespace: "recipientWallet" });
  const token = (await searchParams).token;
  const valid = typeof token === "string" && (await walletSignInLinkIsValid(token));
  return (
    <main className={styles.narrow}>
      <div className={styles.card}>
        <h1 className={styles.title}>{t("linkHeading")}</h1>
        {valid ? (
          <>
            <p className={styles.sub}>{t("linkIntro")}</p>
            <form method="post" action="/api/wallet/sign-in/link">
              <input type="hidden" name="token" value={token} />
              <button className={styles.button} type="submit" data-testid="wallet-link-sign-in">
                {t("signInButton")}
              </button>
            </form>
          </>
        ) : (
          <>
            <p className={styles.error} role="alert" data-testid="wallet-link-invalid">
              {t("linkInvalid")}
            </p>
            <p>
              <a className={styles.button} href="/wallet">
                {t("getNewLink")}
              </a>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
