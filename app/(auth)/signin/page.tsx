import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { enabledOAuthProviders } from "@/lib/auth/dashboard-auth";
import { currentMember } from "@/lib/auth/member";
import styles from "../auth.module.css";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// Why the person arrived here, shown above the form.
const NOTICES = new Map([
  ["reset", "Your password has been changed and every browser signed in to your account was signed out. Sign in with your new password."],
  ["everywhere", "You have been signed out on every browser."],
]);

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentMember()) redirect("/dashboard");
  const params = await searchParams;
  const notice = NOTICES.get(String(params.passwordReset ? "reset" : (params.signedOut ?? "")));
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Sign in</h1>
        <p className={styles.sub}>Issue and manage your organization&apos;s credentials.</p>
        {notice && (
          <p className={styles.notice} role="status">
            {notice}
          </p>
        )}
        <SignInForm providers={enabledOAuthProviders()} />
        <p className={styles.switch}>
          New here? <a href="/signup">Create an account</a>
        </p>
      </div>
    </main>
  );
}
