import type { Metadata } from "next";
import { RESET_LINK_LIFETIME_MINUTES } from "@/lib/auth/password-reset";
import styles from "../auth.module.css";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return (
    <main className={styles.wrap}>
      <div className={styles.card}>
        <h1>Forgot your password?</h1>
        <p className={styles.sub}>Enter the email address you sign in with. We will email you a link to choose a new password.</p>
        <ForgotPasswordForm linkLifetimeMinutes={RESET_LINK_LIFETIME_MINUTES} />
        <p className={styles.switch}>
          Remembered it? <a href="/signin">Sign in</a>
        </p>
      </div>
    </main>
  );
}
