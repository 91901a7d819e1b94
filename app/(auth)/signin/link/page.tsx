import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { INVALID_SIGN_IN_LINK, signInLinkIsValid } from "@/lib/accounts/sign-in-link";
import { currentMember } from "@/lib/auth/member";
import styles from "../../auth.module.css";
import { SignInLinkForm } from "./sign-in-link-form";

// The token is in the address: no other site is told it through a Referer header.
export const metadata: Metadata = { title: "Sign in with your link", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

// Opening the page uses nothing up (mail scanners open links): the button signs in and uses the link.
export default async function SignInLinkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentMember()) redirect("/dashboard");
  const token = (await searchParams).token;
  const valid = typeof token === "string" && (await signInLinkIsValid(token));
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Sign in with your link</h1>
        {valid ? (
          <>
            <p className={styles.sub}>
              This link works once. Signing in with it also lets this browser sign in with your password while your account is guarded.
            </p>
            <SignInLinkForm token={token} invalidLinkMessage={INVALID_SIGN_IN_LINK} />
          </>
        ) : (
          <p className={styles.error} role="alert" data-testid="invalid-link">
            {INVALID_SIGN_IN_LINK}
          </p>
        )}
        <p className={styles.switch}>
          <a href="/signin">Back to sign in</a>
        </p>
      </div>
    </main>
  );
}
