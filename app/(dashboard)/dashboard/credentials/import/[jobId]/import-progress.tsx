"use client";
// The live progress of a confirmed import. It starts from the numbers the page was rendered with (so
// a reload shows where the job is at once) and polls the progress route every second until the job
// is finished and no email of it is still waiting; then it refreshes the page, which adds the summary
// and the failed rows.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { ImportProgress } from "@/lib/imports/service";
import styles from "../../../dashboard.module.css";
import local from "../import.module.css";

const POLL_MS = 1000;

const finished = (p: ImportProgress) => p.status === "done" || p.status === "failed";
const settled = (p: ImportProgress) => finished(p) && (!p.sendEmails || p.emails.queued === 0);

export function ImportProgressView({ jobId, initial }: { jobId: string; initial: ImportProgress }) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (settled(progress)) return;
    let cancelled = false;
    const timer = setTimeout(
      () =>
        void (async () => {
          try {
            const response = await fetch(`/dashboard/credentials/import/${encodeURIComponent(jobId)}/progress`, { cache: "no-store" });
            if (cancelled) return;
            if (response.status === 401) return setProblem("Your session has ended; sign in again to follow this import.");
            if (!response.ok) return setProblem("The progress could not be loaded; it keeps running. Reload the page to try again.");
            const next = (await response.json()) as ImportProgress;
            setProblem(null);
            setProgress(next);
            if (finished(next) && !finished(progress)) router.refresh();
          } catch {
            // A dropped connection: the next poll tries again.
            if (!cancelled) setProgress((p) => ({ ...p }));
          }
        })(),
      POLL_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [progress, jobId, router]);

  const percent = progress.validRows === 0 ? 100 : Math.round((progress.processedRows / progress.validRows) * 100);
  const label =
    progress.status === "queued"
      ? "Waiting to start…"
      : progress.status === "running"
        ? "Issuing…"
        : progress.status === "failed"
          ? "Stopped"
          : progress.sendEmails && progress.emails.queued > 0
            ? "Issued; sending the emails…"
            : "Done";
  return (
    <div data-testid="import-progress" data-status={progress.status}>
      {problem && (
        <p className={`${styles.notice} ${styles.bad}`} role="alert">
          {problem}
        </p>
      )}
      <p>
        <strong>{label}</strong>{" "}
        <span className={styles.muted}>
          {progress.processedRows.toLocaleString("en-US")} of {progress.validRows.toLocaleString("en-US")} rows processed
        </span>
      </p>
      <div
        className={local.bar}
        role="progressbar"
        aria-label="Rows processed"
        aria-valuemin={0}
        aria-valuemax={progress.validRows}
        aria-valuenow={progress.processedRows}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <div className={local.counts}>
        <div data-count="issued">
          <strong>{progress.issuedRows.toLocaleString("en-US")}</strong>
          <span>issued</span>
        </div>
        <div data-count="failed">
          <strong>{progress.failedRows.toLocaleString("en-US")}</strong>
          <span>failed</span>
        </div>
        {progress.sendEmails && (
          <div data-count="emailed">
            <strong>{progress.emails.sent.toLocaleString("en-US")}</strong>
            <span>emails delivered</span>
          </div>
        )}
        {progress.sendEmails && progress.emails.failed > 0 && (
          <div data-count="email-failed">
            <strong>{progress.emails.failed.toLocaleString("en-US")}</strong>
            <span>emails undeliverable</span>
          </div>
        )}
        <div data-count="skipped">
          <strong>{progress.invalidRows.toLocaleString("en-US")}</strong>
          <span>skipped (problems in the file)</span>
        </div>
      </div>
    </div>
  );
}
