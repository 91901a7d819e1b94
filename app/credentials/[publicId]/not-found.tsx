// What a wallet link that leads nowhere shows, in the reader's language (Accept-Language: an unknown
// credential has no group to fix one).
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { documentLocale } from "@/app/document-locale";
import styles from "./wallet.module.css";

export default async function CredentialNotFound() {
  const t = await getTranslations({ locale: await documentLocale(), namespace: "notFound" });
  return (
    <main className={styles.notFound}>
      <h1>{t("title")}</h1>
      <p>{t("body")}</p>
      <p>
        {t("ask")} <Link href="/">{t("home")}</Link>
      </p>
    </main>
  );
}
