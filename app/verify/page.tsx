// {PUBLIC_URL}/verify: anyone (an employer, an admissions office) checks a credential by its URL, its
// JSON or a baked PNG, and sees each check and a plain verdict. The checks run on the server
// (POST /api/verify): the same ones as the wallet's verify button and `npm run cli -- verify`. The page
// speaks its reader's language (./locale.ts), with the language switch at its top.
import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { messagesFor } from "@/lib/i18n/messages";
import { LanguageBar } from "@/app/language-bar";
import { PublicFooter } from "@/app/public-footer";
import { verifyLanguage, verifyLocale } from "./locale";
import { VerifyForm } from "./verify-form";
import styles from "./verify.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await verifyLocale(), namespace: "verifyPage" });
  return { title: t("metaTitle"), description: t("metaDescription") };
}

export default async function VerifyPage() {
  const language = await verifyLanguage();
  const { locale } = language;
  const t = await getTranslations({ locale, namespace: "verifyPage" });
  const { verifyPage, verification, trustVerifier, trustFollowups } = messagesFor(locale);
  return (
    <>
      <LanguageBar language={language} />
      <main className={styles.page}>
        <h1 className={styles.title}>{t("title")}</h1>
        <p className={styles.lead}>{t("lead")}</p>
        {/* The form's words and the result's (app/verify/verification-result.tsx), in the page's language. */}
        <NextIntlClientProvider locale={locale} messages={{ verifyPage, verification, trustVerifier, trustFollowups }} timeZone="UTC">
          <VerifyForm />
        </NextIntlClientProvider>
      </main>
      <PublicFooter />
    </>
  );
}
