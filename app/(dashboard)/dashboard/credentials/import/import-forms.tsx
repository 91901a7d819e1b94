"use client";
import { useState } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../../dashboard.module.css";
import local from "./import.module.css";
import { checkImportAction, confirmImportAction, reopenMappingAction, uploadImportAction } from "./actions";

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className={styles.fieldError} id={`${id}-error`}>
      {message}
    </span>
  ) : null;
}

export function UploadForm({
  templates,
  maxBytes,
  maxRows,
}: {
  templates: { id: string; name: string }[];
  maxBytes: number;
  maxRows: number;
}) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(uploadImportAction);
  // A file over the limit is refused here already, without uploading megabytes to be told so.
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const fileError = tooLarge ?? e.file;
  return (
    <form
      className={styles.formStack}
      noValidate
      onSubmit={(event) => {
        if (tooLarge) return event.preventDefault();
        onSubmit(event);
      }}
    >
      {state.status === "error" && !e.file && !e.groupId && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor="import-template">Template</label>
        <select id="import-template" name="groupId" aria-invalid={Boolean(e.groupId)}>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <FieldError id="import-template" message={e.groupId} />
      </div>
      <div className={styles.field}>
        <label htmlFor="import-file">
          CSV file (UTF-8, comma or semicolon separated, up to {maxRows.toLocaleString("en-US")} rows and {maxBytes / 1024 / 1024} MB)
        </label>
        <input
          id="import-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          aria-invalid={Boolean(fileError)}
          aria-describedby={fileError ? "import-file-error" : undefined}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            setTooLarge(
              file && file.size > maxBytes
                ? `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; at most ${maxBytes / 1024 / 1024} MB can be imported at once. Split it into several files.`
                : null,
            );
          }}
        />
        <FieldError id="import-file" message={fileError} />
      </div>
      <div>
        <button className={styles.button} type="submit" disabled={pending}>
          {pending ? "Reading the file…" : "Upload and map columns"}
        </button>
      </div>
    </form>
  );
}

export type MappingFormProps = {
  jobId: string;
  rows: number;
  columns: { index: number; name: string }[];
  targets: { key: string; label: string; required: boolean }[];
  mapping: Record<string, number>;
};

export function MappingForm({ jobId, rows, columns, targets, mapping }: MappingFormProps) {
  const { state, onSubmit, pending, fieldErrors: e } = useFormAction(checkImportAction);
  return (
    <form onSubmit={onSubmit} noValidate>
      {state.status === "error" && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {state.message}
        </p>
      )}
      <input type="hidden" name="jobId" value={jobId} />
      <div className={local.mapping}>
        {targets.map((target) => {
          const id = `map-${target.key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
          return (
            <div key={target.key} style={{ display: "contents" }}>
              <label htmlFor={id}>
                {target.label}
                {target.required && <span className={local.required}> *</span>}
              </label>
              <select
                id={id}
                name={`map:${target.key}`}
                defaultValue={mapping[target.key] ?? ""}
                aria-invalid={Boolean(e[target.key])}
                aria-describedby={e[target.key] ? `${id}-error` : undefined}
              >
                <option value="">— not imported —</option>
                {columns.map((c) => (
                  <option key={c.index} value={c.index}>
                    {c.name}
                  </option>
                ))}
              </select>
              <span>
                <FieldError id={id} message={e[target.key]} />
              </span>
            </div>
          );
        })}
      </div>
      <button className={styles.button} type="submit" disabled={pending}>
        {pending ? "Checking…" : `Check ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"}`}
      </button>
      <span className={styles.muted}> Nothing is issued yet: you will see a report first.</span>
    </form>
  );
}

/** `warnedRows`: valid rows a design cannot draw (the report's warnings); they do not block, the button says what happens to them. */
export function ConfirmForm({ jobId, validRows, warnedRows = 0 }: { jobId: string; validRows: number; warnedRows?: number }) {
  const confirm = useFormAction(confirmImportAction);
  const reopen = useFormAction(reopenMappingAction);
  const error = confirm.state.status === "error" ? confirm.state.message : reopen.state.status === "error" ? reopen.state.message : null;
  return (
    <>
      {error && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {error}
        </p>
      )}
      <form onSubmit={confirm.onSubmit}>
        <input type="hidden" name="jobId" value={jobId} />
        <label className={local.check}>
          <input type="checkbox" name="sendEmails" defaultChecked /> Send the emails (each recipient with an address gets their credential)
        </label>
        <div className={styles.row}>
          <button className={styles.button} type="submit" disabled={confirm.pending || validRows === 0}>
            {confirm.pending ? "Starting…" : `Issue ${validRows.toLocaleString("en-US")} credential${validRows === 1 ? "" : "s"}`}
          </button>
        </div>
        {warnedRows > 0 && validRows > 0 && (
          <p className={styles.muted} data-testid="confirm-warning">
            {warnedRows.toLocaleString("en-US")} of them {warnedRows === 1 ? "is" : "are"} issued without a certificate image for the
            designs named in the warnings above.
          </p>
        )}
      </form>
      <form onSubmit={reopen.onSubmit} style={{ marginTop: 10 }}>
        <input type="hidden" name="jobId" value={jobId} />
        <button className={styles.secondary} type="submit" disabled={reopen.pending}>
          Change the column mapping
        </button>
      </form>
    </>
  );
}
