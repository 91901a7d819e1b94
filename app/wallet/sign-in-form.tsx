"use client";
// The signed-out wallet: one email field. Whatever the address, the answer is the same "check your
// email" (the service never says whether it knows an address); only a malformed address or too many
// requests are told apart. The outcome is announced in a live region.
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import styles from "./wallet.module.css";

type State = { kind: "idle" } | { kind: "pending" } | { kind: "sent"; email: string } | { kind: "error"; message: string; field: boolean };

export function WalletSignInForm() {
  const t = useTranslations("recipientWallet");
  const [state, setState] = useState<State>({ kind: "idle" });
  const input = useRef<HTMLInputElement>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = (input.current?.value ?? "").trim();
    setState({ kind: "pending" });
    try {
      const answer = await fetch("/api/wallet/sign-in", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email }),
      });
      if (answer.status === 202) setState({ kind: "sent", email });
      else if (answer.status === 400) setState({ kind: "error", message: t("invalidEmail"), field: true });
      else if (answer.status === 429) setState({ kind: "error", message: t("tooMany"), field: false });
      else setState({ kind: "error", message: t("failed"), field: false });
    } catch {
      setState({ kind: "error", message: t("failed"), field: false });
    }
  }

  if (state.kind === "sent") {
    return (
      <div role="status" aria-live="polite" data-testid="wallet-check-email">
        <h2 className={styles.subtitle}>{t("checkEmailHeading")}</h2>
        <p>{t("checkEmail", { email: state.email })}</p>
        <button
          type="button"
          className={styles.secondary}
          onClick={() => {
            setState({ kind: "idle" });
            queueMicrotask(() => input.current?.focus());
          }}
        >
          {t("useAnotherEmail")}
        </button>
      </div>
    );
  }
  const fieldError = state.kind === "error" && state.field;
  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
      <div className={styles.field}>
        <label htmlFor="wallet-email">{t("emailLabel")}</label>
        <input
          ref={input}
          id="wallet-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          aria-invalid={fieldError || undefined}
          aria-describedby={state.kind === "error" ? "wallet-sign-in-error" : undefined}
        />
      </div>
      <p id="wallet-sign-in-error" className={styles.fieldError} role="alert" aria-live="assertive">
        {state.kind === "error" ? state.message : ""}
      </p>
      <button className={styles.button} type="submit" disabled={state.kind === "pending"}>
        {state.kind === "pending" ? t("sending") : t("sendLink")}
      </button>
    </form>
  );
}
