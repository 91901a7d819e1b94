"use client";
import { signOut } from "next-auth/react";
import { useEffect } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import { changePasswordAction, signOutEverywhereAction } from "./account-actions";

const PASSWORD_FIELDS = [
  { name: "currentPassword", id: "current-password", label: "Current password", autoComplete: "current-password" },
  { name: "newPassword", id: "new-password", label: "New password", hint: "At least 10 characters.", autoComplete: "new-password" },
] as const;

export function ChangePasswordForm() {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(changePasswordAction, { resetOnSuccess: true });
  return (
    <>
      {state.status === "ok" && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          {state.message}
        </p>
      )}
      {state.status === "error" && Object.keys(fieldErrors).length === 0 && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
      <form className={styles.formStack} onSubmit={onSubmit} noValidate aria-label="Change password">
        {PASSWORD_FIELDS.map((f) => {
          const error = fieldErrors[f.name];
          const hintId = "hint" in f ? `${f.id}-hint` : undefined;
          const describedBy = [hintId, error ? `${f.id}-error` : undefined].filter(Boolean).join(" ") || undefined;
          return (
            <div className={styles.field} key={f.name}>
              <label htmlFor={f.id}>{f.label}</label>
              {"hint" in f && (
                <span className={styles.muted} id={hintId}>
                  {f.hint}
                </span>
              )}
              <input
                id={f.id}
                name={f.name}
                type="password"
                autoComplete={f.autoComplete}
                required
                aria-invalid={Boolean(error)}
                aria-describedby={describedBy}
              />
              {error && (
                <span className={styles.fieldError} id={`${f.id}-error`} role="alert">
                  {f.label} {error}.
                </span>
              )}
            </div>
          );
        })}
        <div>
          <button className={styles.button} type="submit" disabled={pending}>
            {pending ? "Changing password…" : "Change password"}
          </button>
        </div>
      </form>
    </>
  );
}

export function SignOutEverywhereForm() {
  const { state, onSubmit, pending } = useFormAction(signOutEverywhereAction);
  const done = state.status === "ok";
  useEffect(() => {
    // Every session has ended on the server; this clears this browser's cookie and goes to sign-in.
    if (done) void signOut({ callbackUrl: "/signin?signedOut=everywhere" });
  }, [done]);
  return (
    <>
      {state.status === "error" && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
      <form onSubmit={onSubmit}>
        <button className={styles.danger} type="submit" disabled={pending || done}>
          {pending || done ? "Signing out everywhere…" : "Sign out everywhere"}
        </button>
      </form>
    </>
  );
}
