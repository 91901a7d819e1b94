import type { Metadata } from "next";
import { INVALID_RESET_LINK, resetLinkIsValid } from "@/lib/auth/password-reset";
import styles from "../auth.module.css";
import { ResetPasswordForm } from "./reset-password-form";

// The token is in the address: no other site is told it through a Referer header.
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const token = (await searchParams).token;
  const valid = typeof token === "string" && (await resetLinkIsValid(token));
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Choose a new password</h1>
        {valid ? (
          <>
            <p className={styles.sub}>
              Setting a new password signs your account out on every browser. Then sign in with the new password.
            </p>
            <ResetPasswordForm token={token} />
          </>
        ) : (
          <p className={styles.error} role="alert" data-testid="invalid-link">
            {INVALID_RESET_LINK}
          </p>
        )}
        <p className={styles.switch}>{valid ? <a href="/signin">Back to sign in</a> : <a href="/forgot-password">Ask for a new link</a>}</p>
      </div>
    </main>
  );
}
