// {PUBLIC_URL}/verify: anyone (an employer, an admissions office) checks a credential by its URL, its
// JSON or a baked PNG, and sees each check and a plain verdict. The checks run on the server
// (POST /api/verify): the same ones as the wallet's verify button and `npm run cli -- verify`.
import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { messagesFor } from "@/lib/i18n/messages";
import { PublicFooter } from "@/app/public-footer";
import { VerifyForm } from "./verify-form";
import styles from "./verify.module.css";

export const metadata: Metadata = {
  title: "Verify a credential",
  description:
    "Check that a credential (Open Badges 3.0 or any W3C Verifiable Credential) is genuine, unchanged, issued by who it says, not revoked and in effect.",
};

export default function VerifyPage() {
  return (
    <>
      <main className={styles.page}>
        <h1 className={styles.title}>Verify a credential</h1>
        <p className={styles.lead}>
          Paste the credential&rsquo;s link or its JSON, or choose the PDF or PNG image that came with it. We check that it is a W3C
          Verifiable Credential (an Open Badge or any other), that its signature matches (nothing was changed), who signed it, that the
          issuer has not revoked or suspended it, and that it is in effect today.
        </p>
        {/* The result's words (app/verify/verification-result.tsx); this page is English. */}
        <NextIntlClientProvider
          locale="en"
          messages={{
            verification: messagesFor("en").verification,
            trustVerifier: messagesFor("en").trustVerifier,
            trustFollowups: messagesFor("en").trustFollowups,
          }}
          timeZone="UTC"
        >
          <VerifyForm />
        </NextIntlClientProvider>
      </main>
      <PublicFooter />
    </>
  );
}
