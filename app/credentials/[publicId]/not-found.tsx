// What a wallet link that leads nowhere shows, in the reader's language (app/visitor-language.ts: an unknown
// credential has no group to fix one), with the language switch.
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { documentLocale } from "@/app/document-locale";
import { LanguageBar } from "@/app/language-bar";
import { visitorLanguage } from "@/app/visitor-language";
import styles from "./wallet.module.css";

export default async function CredentialNotFound() {
  const t = await getTranslations({ locale: await documentLocale(), namespace: "notFound" });
  // No credential to be seen here, so no group's language: the visitor's.
  const language = await visitorLanguage(null);
  return (
    <>
      <LanguageBar language={language} />
      <main className={styles.notFound}>
        <h1>{t("title")}</h1>
        <p>{t("body")}</p>
        <p>
          {t("ask")} <Link href="/">{t("home")}</Link>
        </p>
      </main>
    </>
  );
}
