"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../auth.module.css";
import { requestPasswordResetAction } from "./actions";

export function ForgotPasswordForm({ linkLifetimeMinutes }: { linkLifetimeMinutes: number }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(requestPasswordResetAction);
  if (state.status === "ok") {
    // The same answer whether or not an account has the email: the form does not tell who has one.
    return (
      <p className={styles.notice} role="status" data-testid="reset-requested">
        If an account uses that email address, we have sent it a link to choose a new password. The link works for {linkLifetimeMinutes}{" "}
        minutes. Check your inbox, and your spam folder if nothing arrives.
      </p>
    );
  }
  const error = fieldErrors.email;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      {state.status === "error" && !error && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {state.message}
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          aria-invalid={Boolean(error)}
          aria-describedby={error ? "email-error" : undefined}
        />
        {error && (
          <span className={styles.fieldError} id="email-error" role="alert">
            {error}
          </span>
        )}
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a reset link"}
      </button>
    </form>
  );
}
