"use client";
import { useRef, useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import { createCredentialAction, credentialAction, deleteCredentialAction, revokeCredentialAction } from "./actions";

function FieldError({ message }: { message?: string }) {
  return message ? <span className={styles.fieldError}>{message}</span> : null;
}

export function CreateCredentialForm({ templates }: { templates: { id: string; name: string }[] }) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(createCredentialAction, { resetOnSuccess: true });
  const intent = useRef<HTMLInputElement>(null);
  return (
    <form className={styles.formStack} onSubmit={onSubmit} noValidate>
      {state.status === "ok" && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          Credential created ({state.result.status}).
        </p>
      )}
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
      <input type="hidden" name="intent" ref={intent} defaultValue="draft" />
      <div className={styles.field}>
        <label htmlFor="c-template">Template</label>
        <select id="c-template" name="groupId">
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <FieldError message={e.groupId} />
      </div>
      <div className={styles.field}>
        <label htmlFor="c-name">Recipient name</label>
        <input id="c-name" name="recipientName" aria-invalid={Boolean(e["recipient.name"])} />
        <FieldError message={e["recipient.name"]} />
      </div>
      <div className={styles.field}>
        <label htmlFor="c-email">Recipient email (needed to send it)</label>
        <input id="c-email" name="recipientEmail" type="email" aria-invalid={Boolean(e["recipient.email"])} />
        <FieldError message={e["recipient.email"]} />
      </div>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="c-issue">Issue date (default today)</label>
          <input id="c-issue" name="issueDate" type="date" style={{ minWidth: 0 }} aria-invalid={Boolean(e.issueDate)} />
          <FieldError message={e.issueDate} />
        </div>
        <div className={styles.field}>
          <label htmlFor="c-expiry">Expiry date (default from template)</label>
          <input id="c-expiry" name="expiryDate" type="date" style={{ minWidth: 0 }} aria-invalid={Boolean(e.expiryDate)} />
          <FieldError message={e.expiryDate} />
        </div>
      </div>
      <div className={styles.row}>
        <button className={styles.button} type="submit" disabled={pending} onClick={() => intent.current && (intent.current.value = "issue-send")}>
          Issue and send
        </button>
        <button className={styles.secondary} type="submit" disabled={pending} onClick={() => intent.current && (intent.current.value = "draft")}>
          Save as draft
        </button>
      </div>
    </form>
  );
}

export function CredentialRowActions({ id, status, canSend, revoked }: { id: string; status: string; canSend: boolean; revoked: boolean }) {
  const { state, onSubmit, pending } = useFormAction(credentialAction);
  // A revoked credential is final: nothing to issue or send.
  const intent = revoked ? null : status === "draft" ? "issue" : status === "issued" && canSend ? "send" : null;
  if (!intent) return null;
  return (
    <form onSubmit={onSubmit}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value={intent} />
      <button className={styles.secondary} type="submit" disabled={pending}>
        {intent === "issue" ? "Issue" : "Send email"}
      </button>
      {state.status === "error" && <span className={styles.fieldError}> {state.message}</span>}
      {state.status === "ok" && <span className={styles.muted}> {state.message}</span>}
    </form>
  );
}

/**
 * "Revoke" on a credential's page: a first click only opens the step that asks for the reason and says
 * that revocation is final; the credential is revoked by the second, explicit confirmation.
 */
export function RevokeCredentialForm({ id }: { id: string }) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(revokeCredentialAction);
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button className={styles.secondary} type="button" onClick={() => setConfirming(true)}>
        Revoke…
      </button>
    );
  }
  return (
    <form className={styles.formStack} onSubmit={onSubmit} noValidate aria-labelledby="revoke-heading" data-testid="revoke-form">
      <h2 id="revoke-heading">Revoke this credential?</h2>
      <p className={`${styles.notice} ${styles.bad}`}>
        Revocation is final. The wallet page will say that the credential was revoked, when and why; it can no longer be
        shared, downloaded, sent or changed, and emails still waiting to go out for it are cancelled.
      </p>
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`} role="alert">{state.message}</p>}
      <input type="hidden" name="id" value={id} />
      <div className={styles.field}>
        <label htmlFor="revoke-reason">Reason (optional, shown on the wallet page)</label>
        <input id="revoke-reason" name="reason" maxLength={500} aria-invalid={Boolean(e.reason)} />
        <FieldError message={e.reason} />
      </div>
      <div className={styles.row}>
        <button className={styles.danger} type="submit" disabled={pending}>
          Revoke credential
        </button>
        <button className={styles.secondary} type="button" disabled={pending} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * "Delete" on a credential's page: a first click opens the step that says what goes with it; the
 * second, explicit one deletes (the same service as DELETE /v1/credentials/{id}) and returns to the table.
 */
export function DeleteCredentialForm({ id, name, canRevoke }: { id: string; name: string; canRevoke: boolean }) {
  const { state, onSubmit, pending } = useFormAction(deleteCredentialAction);
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button className={styles.danger} type="button" onClick={() => setConfirming(true)}>
        Delete…
      </button>
    );
  }
  return (
    <form className={styles.formStack} onSubmit={onSubmit} aria-labelledby="delete-heading" data-testid="delete-form">
      <h2 id="delete-heading">Delete the credential of {name}?</h2>
      <p className={`${styles.notice} ${styles.bad}`}>
        Deleting cannot be undone. Its wallet page, previews and activity are gone for good, and emails still waiting to go out for it
        are cancelled.{canRevoke && " To keep a public record that it is no longer valid, revoke it instead."}
      </p>
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`} role="alert">{state.message}</p>}
      <input type="hidden" name="id" value={id} />
      <div className={styles.row}>
        <button className={styles.danger} type="submit" disabled={pending}>
          {pending ? "Deleting…" : "Delete credential"}
        </button>
        <button className={styles.secondary} type="button" disabled={pending} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
