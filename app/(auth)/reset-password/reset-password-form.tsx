"use client";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../auth.module.css";
import { resetPasswordAction } from "./actions";

export function ResetPasswordForm({ token }: { token: string }) {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(resetPasswordAction);
  const error = fieldErrors.newPassword;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      {state.status === "error" && !error && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {state.message} <a href="/forgot-password">Ask for a new link</a>
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      <div className={styles.field}>
        <label htmlFor="new-password">New password</label>
        <span className={styles.hint} id="new-password-hint">
          At least 10 characters.
        </span>
        <input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={Boolean(error)}
          aria-describedby={error ? "new-password-hint new-password-error" : "new-password-hint"}
        />
        {error && (
          <span className={styles.fieldError} id="new-password-error" role="alert">
            The new password {error}.
          </span>
        )}
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}
