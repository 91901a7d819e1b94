"use client";
// The credentials table: sortable column headers (links the page builds), a checkbox per row and one
// for the whole page, and "Issue selected" / "Send selected…" / "Revoke selected…". The row checkboxes
// belong to the bulk form through their `form` attribute (the rows hold forms of their own, which
// cannot nest), so the action receives exactly the ids the checked boxes carry; the server trusts none
// of them. Send and revoke first ask (BulkConfirmation), with the counts the server found.
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../dashboard.module.css";
import { bulkCredentialAction, previewBulkAction } from "./actions";
import { BulkConfirmation, BulkOutcomeNotice } from "./bulk-confirmation";
import { CredentialRowActions } from "./credential-forms";
import type { EmailStatus } from "./email-status";

export type TableRow = {
  id: string;
  name: string;
  email: string | null;
  template: string;
  status: string;
  /** Revoked is shown in place of the status: it is what matters about the credential now. */
  revoked: boolean;
  /** Where its newest email stands (queued, sent, failed, cancelled), or "not sent". */
  emailStatus: EmailStatus;
  /** Its newest own email's id (null: none): a "Send again" confirms on it. */
  emailId: string | null;
  issueDate: string;
  expiryDate: string | null;
  createdAt: string;
  updatedAt: string;
  walletUrl: string | null;
};

export type SortHeader = {
  property: "issueDate" | "expiryDate" | "createdAt" | "updatedAt" | "id";
  label: string;
  href: string;
  /** aria-sort of the column the table is sorted by; null for the others. */
  sort: "ascending" | "descending" | null;
};

const BULK_FORM = "bulk-credentials";

const EMAIL_TONE: Partial<Record<EmailStatus["label"], string>> = { sent: styles.emailSent, failed: styles.emailFailed };

/** An ISO date-time as its date over its minute (UTC): the same text on the server and in the browser. */
function DateTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={`${iso} (UTC)`}>
      {iso.slice(0, 10)}
      <br />
      <span className={styles.muted}>{iso.slice(11, 16)} UTC</span>
    </time>
  );
}

/** An address that may wrap before its "@" rather than anywhere in it. */
function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

function cell(row: TableRow, property: SortHeader["property"]) {
  switch (property) {
    case "issueDate":
      return row.issueDate;
    case "expiryDate":
      return row.expiryDate ?? "never";
    case "createdAt":
    case "updatedAt":
      return <DateTime iso={row[property]} />;
    case "id":
      return row.id;
  }
}

export function CredentialsTable({ rows, sortHeaders }: { rows: TableRow[]; sortHeaders: SortHeader[] }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const bulk = useFormAction(bulkCredentialAction);
  const preview = useFormAction(previewBulkAction);
  const { state, pending } = bulk;
  const intent = useRef<HTMLInputElement>(null);
  const selectAll = useRef<HTMLInputElement>(null);
  // The confirmation shown: the preview answer it was opened for, until confirmed or cancelled.
  const [closedPreview, setClosedPreview] = useState<typeof preview.state | null>(null);
  const confirming = preview.state.status === "ok" && closedPreview !== preview.state ? preview.state.result : null;

  // After an action went through, the statuses changed: start the next selection from scratch.
  const [answered, setAnswered] = useState(state);
  if (answered !== state) {
    setAnswered(state);
    if (state.status === "ok") {
      setSelected(new Set());
      setClosedPreview(preview.state);
    }
  }

  const count = rows.filter((r) => selected.has(r.id)).length;
  const all = rows.length > 0 && count === rows.length;
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = count > 0 && !all;
  }, [count, all]);

  const toggle = (id: string, on: boolean) => {
    // A changed selection is not what the open confirmation counted.
    setClosedPreview(preview.state);
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  };
  const setIntent = (value: "issue" | "send" | "revoke") => () => {
    // eslint-disable-next-line react-hooks/refs -- runs in the click handler this factory returns, not during render
    if (intent.current) intent.current.value = value;
  };
  // Issue goes at once (issuing twice is refused by its state rule); send and revoke ask first.
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (intent.current?.value === "issue") bulk.onSubmit(event);
    else preview.onSubmit(event);
  };
  const busy = pending || preview.pending;

  return (
    <>
      <form id={BULK_FORM} className={styles.bulkBar} onSubmit={onSubmit} aria-label="Selected credentials">
        <input type="hidden" name="intent" ref={intent} defaultValue="issue" />
        <span className={styles.muted} data-testid="selected-count">
          {count} selected
        </span>
        <button className={styles.secondary} type="submit" disabled={busy || count === 0} onClick={setIntent("issue")}>
          Issue selected
        </button>
        <button className={styles.secondary} type="submit" disabled={busy || count === 0} onClick={setIntent("send")}>
          Send selected…
        </button>
        <button className={styles.danger} type="submit" disabled={busy || count === 0} onClick={setIntent("revoke")}>
          Revoke selected…
        </button>
        {busy && <span className={styles.muted}>Working…</span>}
      </form>
      {confirming && (
        <BulkConfirmation
          preview={confirming}
          pending={pending}
          onConfirm={bulk.onSubmit}
          onCancel={() => setClosedPreview(preview.state)}
          error={state.status === "error" ? state : null}
        />
      )}
      {preview.state.status === "error" && closedPreview !== preview.state && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert" data-testid="bulk-outcome">
          {preview.state.fieldErrors.id ?? preview.state.fieldErrors.intent ?? preview.state.message}
        </p>
      )}
      {state.status === "ok" && <BulkOutcomeNotice outcome={state.result} />}
      {state.status === "error" && !confirming && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert" data-testid="bulk-outcome">
          {state.fieldErrors.id ?? state.fieldErrors.intent ?? state.message}
        </p>
      )}
      {rows.length === 0 && <p className={styles.muted}>No credentials match.</p>}
      {rows.length > 0 && (
        <div className={styles.tableScroll} role="region" aria-label="Credentials" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th className={styles.selectCell}>
                  <input
                    type="checkbox"
                    ref={selectAll}
                    aria-label="Select all on this page"
                    checked={all}
                    onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
                  />
                </th>
                <th>Recipient</th>
                <th>Template</th>
                <th>Status</th>
                {sortHeaders.map((h) => (
                  <th key={h.property} aria-sort={h.sort ?? undefined}>
                    <Link
                      className={styles.sortLink}
                      href={h.href}
                      title={`Sort by ${h.label.toLowerCase()}, ${h.sort === "descending" ? "oldest" : "latest"} first`}
                    >
                      {h.label}
                      <span aria-hidden="true" className={h.sort ? undefined : styles.sortIdle}>
                        {h.sort === "ascending" ? "▲" : h.sort === "descending" ? "▼" : "↕"}
                      </span>
                    </Link>
                  </th>
                ))}
                <th>
                  <span className={styles.visuallyHidden}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-credential-id={r.id} className={selected.has(r.id) ? styles.selectedRow : undefined}>
                  <td className={styles.selectCell}>
                    <input
                      type="checkbox"
                      form={BULK_FORM}
                      name="id"
                      value={r.id}
                      aria-label={`Select ${r.name}`}
                      checked={selected.has(r.id)}
                      onChange={(e) => toggle(r.id, e.target.checked)}
                    />
                  </td>
                  <td>
                    <Link href={`/dashboard/credentials/${r.id}`}>{r.name}</Link>
                    <br />
                    <span className={`${styles.muted} ${styles.email}`}>{r.email ? <EmailAddress address={r.email} /> : "no email"}</span>
                  </td>
                  <td>{r.template}</td>
                  <td>
                    {r.revoked ? (
                      <span className={`${styles.pill} ${styles.pillRevoked}`} title={`revoked (${r.status})`}>
                        revoked
                      </span>
                    ) : (
                      <span className={r.status === "issued" ? styles.pill : `${styles.pill} ${styles.pillGrey}`}>{r.status}</span>
                    )}
                    {/* The email's state under the credential's: one column keeps the table within a laptop's width. */}
                    <div
                      className={`${styles.emailState} ${EMAIL_TONE[r.emailStatus.label] ?? ""}`}
                      data-email-status={r.emailStatus.label}
                      title={r.emailStatus.description}
                    >
                      email {r.emailStatus.label}
                    </div>
                  </td>
                  {sortHeaders.map((h) => (
                    <td key={h.property} className={styles.nowrap}>
                      {cell(r, h.property)}
                    </td>
                  ))}
                  <td>
                    <div className={styles.rowActions}>
                      <CredentialRowActions
                        id={r.id}
                        name={r.name}
                        status={r.status}
                        canSend={Boolean(r.email)}
                        revoked={r.revoked}
                        email={{ id: r.emailId, label: r.emailStatus.label, sentAt: r.emailStatus.sentAt }}
                      />
                      {r.walletUrl && (
                        <a className={styles.secondary} href={r.walletUrl} target="_blank" rel="noreferrer">
                          Wallet
                        </a>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
