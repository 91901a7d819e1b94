"use client";
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import { createTokenAction, revokeTokenAction } from "./actions";

export function CreateTokenForm() {
  const { state, onSubmit, pending, fieldErrors } = useFormAction(createTokenAction, { resetOnSuccess: true });
  const [copied, setCopied] = useState(false);
  return (
    <>
      {state.status === "ok" && (
        <div className={styles.secret} role="status">
          <span>
            Token <strong>{state.result.name}</strong> created. Copy it now; it will not be shown again:
          </span>
          <code data-testid="new-token">{state.result.token}</code>
          <button
            className={styles.secondary}
            type="button"
            onClick={() => void navigator.clipboard.writeText(state.result.token).then(() => setCopied(true))}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      )}
      {state.status === "error" && !fieldErrors.name && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
      <form className={styles.form} onSubmit={(e) => (setCopied(false), onSubmit(e))} noValidate>
        <div className={styles.field}>
          <label htmlFor="token-name">Name</label>
          <input
            id="token-name"
            name="name"
            placeholder="e.g. LMS integration"
            aria-invalid={Boolean(fieldErrors.name)}
            aria-describedby={fieldErrors.name ? "token-name-error" : undefined}
          />
          {fieldErrors.name && (
            <span className={styles.fieldError} id="token-name-error">
              Name {fieldErrors.name}
            </span>
          )}
        </div>
        <button className={styles.button} type="submit" disabled={pending} style={{ marginTop: 24 }}>
          {pending ? "Creating…" : "Create token"}
        </button>
      </form>
    </>
  );
}

export function RevokeTokenButton({ prefix, name }: { prefix: string; name: string }) {
  const { state, onSubmit, pending } = useFormAction(revokeTokenAction);
  return (
    <form
      onSubmit={(e) => {
        if (!window.confirm(`Revoke the token "${name}"? Systems using it will get 401 at once.`)) return e.preventDefault();
        onSubmit(e);
      }}
    >
      <input type="hidden" name="prefix" value={prefix} />
      <button className={styles.danger} type="submit" disabled={pending}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {state.status === "error" && <span className={styles.fieldError}> {state.message}</span>}
    </form>
  );
}
