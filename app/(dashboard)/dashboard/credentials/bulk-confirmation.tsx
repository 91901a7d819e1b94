"use client";
// What "Send selected…" and "Revoke selected…" ask before anything is written, with the counts the
// server found (bulk.ts previewBulk), and what every bulk action answers: a count per outcome and the
// reason of each row it did not change. The confirmed form carries the newest email of each row as the
// person saw it, so a second tab or a double click cannot email anyone twice.
import { useState } from "react";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import type { BulkOutcome, BulkPreview, PreviewRow } from "./bulk";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function RowList({ rows, testId }: { rows: PreviewRow[]; testId: string }) {
  return (
    <ul className={styles.failures} data-testid={testId}>
      {rows.map((r) => (
        <li key={r.id}>
          <strong>{r.name}</strong>: {r.message}
        </li>
      ))}
    </ul>
  );
}

export function BulkConfirmation({
  preview,
  pending,
  onConfirm,
  onCancel,
  error,
}: {
  preview: BulkPreview;
  pending: boolean;
  onConfirm: (event: React.FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  error: Extract<FormState<unknown>, { status: "error" }> | null;
}) {
  const [again, setAgain] = useState(false);
  const ids = [...preview.ready, ...preview.already, ...preview.refused].map((r) => r.id);
  const send = preview.intent === "send";
  // An email still waiting to go out is not doubled, even with "Send again".
  const emailedBefore = preview.already.filter((r) => r.message.startsWith("emailed"));
  const waiting = preview.already.length - emailedBefore.length;
  const total = preview.ready.length + (send && again ? emailedBefore.length : 0);
  const heading = send ? `Send ${plural(total, "email", "emails")}?` : `Revoke ${plural(total, "credential", "credentials")}?`;
  return (
    <form
      className={`${styles.notice} ${styles.warn} ${styles.formStack}`}
      onSubmit={onConfirm}
      aria-labelledby="bulk-confirm-heading"
      data-testid="bulk-confirmation"
      noValidate
    >
      <h2 id="bulk-confirm-heading" style={{ margin: 0, fontSize: "1.05rem" }}>
        {heading}
      </h2>
      <input type="hidden" name="intent" value={preview.intent} />
      {ids.map((id) => (
        <input key={id} type="hidden" name="id" value={id} />
      ))}
      {send ? (
        <>
          <input type="hidden" name="seen" value={JSON.stringify(preview.seen)} />
          <p style={{ margin: 0 }} data-testid="bulk-counts">
            {plural(preview.ready.length, "will be emailed for the first time", "will be emailed for the first time")}
            {emailedBefore.length > 0 &&
              `, ${plural(emailedBefore.length, "was", "were")} already emailed: tick Send again to email ${emailedBefore.length === 1 ? "it" : "them"} too`}
            {waiting > 0 && `, ${plural(waiting, "has an email", "have an email")} waiting to go out and will not get a second`}.
          </p>
          {emailedBefore.length > 0 && (
            <>
              <label className={styles.checks} style={{ display: "flex", gap: 8, alignItems: "center", fontWeight: 400 }}>
                <input type="checkbox" name="sendAgain" value="1" checked={again} onChange={(e) => setAgain(e.target.checked)} /> Send again
                to the {plural(emailedBefore.length, "credential", "credentials")} already emailed
              </label>
              <details>
                <summary>Already emailed</summary>
                <RowList rows={emailedBefore} testId="bulk-already" />
              </details>
            </>
          )}
        </>
      ) : (
        <>
          <p style={{ margin: 0 }} data-testid="bulk-counts">
            Revocation is final: {plural(preview.ready.length, "credential", "credentials")} will say on{" "}
            {preview.ready.length === 1 ? "its" : "their"} wallet page that {preview.ready.length === 1 ? "it was" : "they were"} revoked,
            when and why, and can no longer be shared, sent or changed.
            {preview.already.length > 0 && ` ${plural(preview.already.length, "is", "are")} already revoked and stay as they are.`}
          </p>
          <div className={styles.field}>
            <label htmlFor="bulk-reason">Reason for all of them (optional, shown on each wallet page)</label>
            <input id="bulk-reason" name="reason" maxLength={500} aria-invalid={Boolean(error?.fieldErrors.reason)} />
            {error?.fieldErrors.reason && <span className={styles.fieldError}>{error.fieldErrors.reason}</span>}
          </div>
        </>
      )}
      {preview.refused.length > 0 && (
        <div>
          {plural(preview.refused.length, "will be refused", "will be refused")}:
          <RowList rows={preview.refused} testId="bulk-refused" />
        </div>
      )}
      {error && !error.fieldErrors.reason && (
        <p className={styles.fieldError} role="alert">
          {error.message}
        </p>
      )}
      <div className={styles.row}>
        <button className={send ? styles.button : styles.danger} type="submit" disabled={pending || total === 0}>
          {total === 0
            ? send
              ? "Nothing to send"
              : "Nothing to revoke"
            : send
              ? `Send ${plural(total, "email", "emails")}`
              : `Revoke ${plural(total, "credential", "credentials")}`}
        </button>
        <button className={styles.secondary} type="button" disabled={pending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "3 issued, 2 already issued, 1 refused:" and the rows it did not change, each with why. */
export function BulkOutcomeNotice({ outcome }: { outcome: BulkOutcome }) {
  return (
    <div className={`${styles.notice} ${outcome.refused.length > 0 ? styles.warn : styles.ok}`} role="status" data-testid="bulk-outcome">
      {outcome.summary}
      {outcome.refused.length > 0 && <RowList rows={outcome.refused} testId="bulk-outcome-refused" />}
      {outcome.already.length > 0 && (
        <details>
          <summary>{plural(outcome.already.length, "was left as it was", "were left as they were")}</summary>
          <RowList rows={outcome.already} testId="bulk-outcome-already" />
        </details>
      )}
    </div>
  );
}
