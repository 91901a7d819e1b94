"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../../auth.module.css";

/** `invalidLinkMessage`: what to say when the link was used up meanwhile (the page's own wording). */
export function SignInLinkForm({ token, invalidLinkMessage }: { token: string; invalidLinkMessage: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const result = await signIn("sign-in-link", { token, redirect: false });
    if (result?.ok && !result.error) {
      router.replace("/dashboard");
      router.refresh();
      return;
    }
    setPending(false);
    setError(
      result?.error === "SignInLinkInvalid"
        ? invalidLinkMessage
        : result?.error === "TooManyAttempts"
          ? "Too many sign-in attempts from your network. Wait a few minutes and try again."
          : "Sign-in failed. Please try again.",
    );
  }

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)}>
      {error && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {error}
        </p>
      )}
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
