import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentMember } from "@/lib/auth/member";
import styles from "../auth.module.css";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account" };
export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentMember()) redirect("/dashboard");
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Create an account</h1>
        <p className={styles.sub}>Signing up creates your organization on the free plan.</p>
        <SignUpForm />
        <p className={styles.switch}>
          Already have an account? <a href="/signin">Sign in</a>
        </p>
      </div>
    </main>
  );
}
