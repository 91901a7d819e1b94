import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { enabledOAuthProviders } from "@/lib/auth/dashboard-auth";
import { currentMember } from "@/lib/auth/member";
import styles from "../auth.module.css";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await currentMember()) redirect("/dashboard");
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Sign in</h1>
        <p className={styles.sub}>Issue and manage your organization&apos;s credentials.</p>
        <SignInForm providers={enabledOAuthProviders()} />
        <p className={styles.switch}>
          New here? <a href="/signup">Create an account</a>
        </p>
      </div>
    </main>
  );
}
