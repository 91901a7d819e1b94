// The /wallet section that downloads every credential at once: a plain link to
// GET /api/wallet/me/download (a same-site navigation carries the wallet's cookie), so it works
// without JavaScript and the browser shows its own download progress.
import { getTranslations } from "next-intl/server";
import type { Locale } from "@/lib/i18n/locales";
import styles from "./profile-settings.module.css";

export async function DownloadAll({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: "walletDownload" });
  return (
    <section className={styles.card} aria-labelledby="download-all-heading" data-testid="download-all">
      <h2 id="download-all-heading" className={styles.heading}>
        {t("heading")}
      </h2>
      <p className={styles.intro}>{t("help")}</p>
      <a className={styles.button} href="/api/wallet/me/download" download data-testid="download-all-link">
        {t("button")}
      </a>
    </section>
  );
}
