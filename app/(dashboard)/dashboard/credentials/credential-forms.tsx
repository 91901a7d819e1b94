"use client";
import { useEffect, useRef, useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import { createCredentialAction, credentialAction, deleteCredentialAction, revokeCredentialAction } from "./actions";
import { UndrawableList } from "./undrawable-warning";
import type { EmailStatus } from "./email-status";

function FieldError({ message }: { message?: string }) {
  return message ? <span className={styles.fieldError}>{message}</span> : null;
}

/**
 * "Issue and send" asks first when a design of the template cannot draw the text (characters no bundled
 * font has): the server writes nothing and answers with the designs; "Issue anyway" sends the same form
 * again acknowledging them, "Go back and fix" (or any change to the form) drops the question.
 */
export function CreateCredentialForm({ templates }: { templates: { id: string; name: string }[] }) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(createCredentialAction);
  const form = useRef<HTMLFormElement>(null);
  const intent = useRef<HTMLInputElement>(null);
  const acknowledged = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const question = useRef<HTMLDivElement>(null);
  // The answer the person set aside (went back to fix, or changed the form): its question is not shown again.
  const [setAside, setSetAside] = useState<typeof state | null>(null);
  const result = state.status === "ok" ? state.result : null;
  const confirming = result?.kind === "confirm" && setAside !== state ? result : null;
  const created = result?.kind === "created" ? result : null;

  useEffect(() => {
    // Cleared only once something was created, not when the server asks first.
    if (created) form.current?.reset();
  }, [created]);
  useEffect(() => {
    // Keyboard and screen-reader users land on the question.
    if (confirming) question.current?.focus();
  }, [confirming]);

  const submitAs =
    (value: "issue-send" | "draft", acknowledgement = "") =>
    () => {
      // eslint-disable-next-line react-hooks/refs -- runs in the click handler this factory returns, not during render
      if (intent.current) intent.current.value = value;
      // eslint-disable-next-line react-hooks/refs -- runs in the click handler this factory returns, not during render
      if (acknowledged.current) acknowledged.current.value = acknowledgement;
    };
  return (
    <form ref={form} className={styles.formStack} onSubmit={onSubmit} onChange={() => confirming && setSetAside(state)} noValidate>
      {created && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          Credential created ({created.status}).
        </p>
      )}
      {created && created.undrawable.length > 0 && (
        <div className={`${styles.notice} ${styles.warn}`} role="status" data-testid="undrawable-notice">
          {created.status === "draft"
            ? "When this draft is issued, the recipient gets no certificate image from these designs:"
            : "The recipient gets no certificate image from these designs (the wallet page shows the credential as text):"}
          <UndrawableList designs={created.undrawable} />
        </div>
      )}
      {state.status === "error" && <p className={`${styles.notice} ${styles.bad}`}>{state.message}</p>}
      <input type="hidden" name="intent" ref={intent} defaultValue="draft" />
      <input type="hidden" name="acknowledged" ref={acknowledged} defaultValue="" />
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
        <input id="c-name" ref={nameInput} name="recipientName" aria-invalid={Boolean(e["recipient.name"])} />
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
      {confirming ? (
        <div
          ref={question}
          tabIndex={-1}
          role="group"
          aria-labelledby="undrawable-heading"
          className={`${styles.notice} ${styles.warn}`}
          data-testid="undrawable-question"
        >
          <h3 id="undrawable-heading" style={{ margin: "0 0 6px" }}>
            Some of this text cannot be drawn on the certificate
          </h3>
          <UndrawableList designs={confirming.undrawable} />
          <p style={{ margin: "6px 0 10px" }}>
            No bundled font has these characters. Nothing has been issued yet. Issued as it is, the credential is valid and its wallet page
            shows it as text, but there is no certificate image from {confirming.undrawable.length === 1 ? "that design" : "those designs"}{" "}
            to download or share.
          </p>
          {/* Going back is the safe default, so it comes first and looks like it. */}
          <div className={styles.row}>
            <button
              className={styles.button}
              type="button"
              disabled={pending}
              onClick={() => {
                setSetAside(state);
                nameInput.current?.focus();
              }}
            >
              Go back and fix
            </button>
            <button
              className={styles.secondary}
              type="submit"
              disabled={pending}
              onClick={submitAs("issue-send", confirming.acknowledgement)}
            >
              {pending
                ? "Issuing…"
                : `Issue anyway — the recipient gets no certificate image for ${confirming.undrawable.length === 1 ? "that design" : "those designs"}`}
            </button>
            <button className={styles.secondary} type="submit" disabled={pending} onClick={submitAs("draft")}>
              Save as draft
            </button>
          </div>
        </div>
      ) : (
        <div className={styles.row}>
          <button className={styles.button} type="submit" disabled={pending} onClick={submitAs("issue-send")}>
            Issue and send
          </button>
          <button className={styles.secondary} type="submit" disabled={pending} onClick={submitAs("draft")}>
            Save as draft
          </button>
        </div>
      )}
    </form>
  );
}

export function CredentialRowActions({
  id,
  name,
  status,
  canSend,
  revoked,
  email,
}: {
  id: string;
  name: string;
  status: string;
  canSend: boolean;
  revoked: boolean;
  /** Its newest own email: once one is sent or queued, the row says so instead of offering "Send email". */
  email: { id: string | null; label: EmailStatus["label"]; sentAt: string | null };
}) {
  const { state, onSubmit, pending } = useFormAction(credentialAction);
  const [confirmingAgain, setConfirmingAgain] = useState(false);
  // A revoked credential is final: nothing to issue or send.
  const intent = revoked ? null : status === "draft" ? "issue" : status === "issued" && canSend ? "send" : null;
  if (!intent) return null;
  const answer = (
    <>
      {state.status === "error" && <span className={styles.fieldError}> {state.message}</span>}
      {state.status === "ok" && (
        <span className={styles.muted} role="status">
          {" "}
          {state.result}
        </span>
      )}
    </>
  );
  const emailed = intent === "send" && (email.label === "sent" || email.label === "queued");
  if (!emailed) {
    return (
      <form onSubmit={onSubmit}>
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="intent" value={intent} />
        <button className={styles.secondary} type="submit" disabled={pending}>
          {intent === "issue" ? "Issue" : "Send email"}
        </button>
        {answer}
      </form>
    );
  }
  const when = email.label === "sent" ? `Emailed${email.sentAt ? ` ${shortDay(email.sentAt)}` : ""}` : "Email queued";
  return (
    <form onSubmit={onSubmit} className={styles.rowSend}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="again" value="1" />
      <input type="hidden" name="seen" value={email.id ?? ""} />
      <span className={styles.muted} data-testid="emailed">
        {when}
      </span>
      {email.label === "sent" &&
        (confirmingAgain ? (
          <span role="group" aria-label={`Send the email to ${name} again?`}>
            <span>Send it again?</span>{" "}
            <button className={styles.secondary} type="submit" disabled={pending} onClick={() => setConfirmingAgain(false)}>
              Send again
            </button>{" "}
            <button className={styles.secondary} type="button" onClick={() => setConfirmingAgain(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button className={styles.secondary} type="button" onClick={() => setConfirmingAgain(true)}>
            Send again…
          </button>
        ))}
      {answer}
    </form>
  );
}

/** "3 Mar" of an ISO date-time (UTC), the same on the server and in the browser. */
function shortDay(iso: string): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(iso.slice(8, 10))} ${months[Number(iso.slice(5, 7)) - 1]}`;
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
        Revocation is final. The wallet page will say that the credential was revoked, when and why; it can no longer be shared, downloaded,
        sent or changed, and emails still waiting to go out for it are cancelled.
      </p>
      {state.status === "error" && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
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
        Deleting cannot be undone. Its wallet page, previews and activity are gone for good, and emails still waiting to go out for it are
        cancelled.{canRevoke && " To keep a public record that it is no longer valid, revoke it instead."}
      </p>
      {state.status === "error" && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
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
