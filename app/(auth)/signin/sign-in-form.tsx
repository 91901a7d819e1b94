"use client";
import { signIn } from "next-auth/react";
import { safeNext } from "./safe-next";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import styles from "../auth.module.css";

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  AccessDenied: "That account has no verified email address we can use.",
  OAuthSignin: "Could not reach the sign-in provider. Please try again.",
  OAuthCallback: "The sign-in provider did not confirm your account. Please try again.",
  TooManyAttempts: "Too many sign-in attempts. Wait a few minutes and try again, or reset your password.",
  UseEmailedLink:
    "Too many wrong passwords have been tried for this account, so for now it takes a password only in a browser that has signed in to it before. " +
    "If the account exists, we have emailed it a one-time sign-in link: open it to sign in (it works for 15 minutes).",
};

/** The message for an error code from the address or next-auth (own keys only: `?error=constructor` is not one). */
function messageFor(code: string | null | undefined): string | undefined {
  return code && Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined;
}

export function SignInForm({ providers }: { providers: { id: string; name: string }[] }) {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(params.get("error") ? (messageFor(params.get("error")) ?? "Sign-in failed.") : null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    if (result?.ok && !result.error) {
      router.replace(safeNext(params.get("next")));
      router.refresh();
      return;
    }
    setPending(false);
    setError(messageFor(result?.error) ?? "Sign-in failed. Please try again.");
  }

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
      {error && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {error}
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div className={styles.field}>
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <a className={styles.forgot} href="/forgot-password">
          Forgot password?
        </a>
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {providers.map((p) => (
        <button
          key={p.id}
          className={styles.secondary}
          type="button"
          onClick={() => void signIn(p.id, { callbackUrl: safeNext(params.get("next")) })}
        >
          Continue with {p.name}
        </button>
      ))}
    </form>
  );
}
