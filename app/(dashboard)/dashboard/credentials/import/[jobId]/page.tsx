// One import, at whatever step it is: mapping its columns (uploaded), the report before anything is
// written (validated), or its progress and outcome (queued, running, done, failed). A job of another
// organization is "not found", like one that does not exist.
import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { columnName } from "@/lib/imports/mapping";
import {
  failedImportRows,
  getImportJob,
  importMappingView,
  importProgress,
  invalidImportRows,
  type ImportJobView,
  type InvalidImportRow,
} from "@/lib/imports/service";
import { importTextWarnings, type UndrawableImportRow } from "@/lib/imports/text-warnings";
import styles from "../../../dashboard.module.css";
import local from "../import.module.css";
import { ConfirmForm, MappingForm } from "../import-forms";
import { ImportProgressView } from "./import-progress";

export const metadata = { title: "Import" };

const REPORT_LIMIT = 1000;

export default async function ImportJobPage({ params }: { params: Promise<{ jobId: string }> }) {
  const member = await requireMember();
  const { jobId } = await params;
  let job: ImportJobView;
  try {
    job = await getImportJob(member.organization.id, jobId);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  return (
    <>
      <p>
        <Link href="/dashboard/credentials/import">← Imports</Link>
      </p>
      <h1>{job.fileName}</h1>
      <p className={styles.lead}>
        {job.totalRows.toLocaleString("en-US")} rows into the template <strong>{job.groupName}</strong>
        {job.separator === ";" ? " · separated by semicolons" : ""}
      </p>
      {job.status === "uploaded" && <MappingStep job={job} organizationId={member.organization.id} />}
      {job.status === "validated" && <ReportStep job={job} organization={member.organization} />}
      {job.status !== "uploaded" && job.status !== "validated" && <ProgressStep job={job} organizationId={member.organization.id} />}
    </>
  );
}

async function MappingStep({ job, organizationId }: { job: ImportJobView; organizationId: string }) {
  const view = await importMappingView(organizationId, job.id);
  const columns = view.header.map((_, index) => ({ index, name: columnName(view.header, index) }));
  return (
    <section className={styles.section}>
      <h2>2. Map the columns</h2>
      <p className={styles.muted}>The first rows of the file:</p>
      <div className={local.scroll}>
        <table className={local.preview} aria-label="The file's first rows">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.index}>{c.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.preview.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.index} title={row[c.index]}>
                    {row[c.index]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.muted}>
        For each field, the column it is read from. Columns were matched by their names; custom attributes appear as{" "}
        <code>[custom.&lt;tag&gt;]</code> placeholders in designs and emails.
      </p>
      <MappingForm
        jobId={job.id}
        rows={job.totalRows}
        columns={columns}
        targets={view.targets}
        mapping={view.mapping as Record<string, number>}
      />
    </section>
  );
}

function ProblemTable({ rows, label }: { rows: InvalidImportRow[]; label: string }) {
  return (
    <table className={styles.table} aria-label={label}>
      <thead>
        <tr>
          <th>Line</th>
          <th>Column</th>
          <th>Problem</th>
        </tr>
      </thead>
      <tbody>
        {rows.flatMap((row) =>
          row.problems.map((p, i) => (
            <tr key={`${row.line}-${i}`} data-line={row.line}>
              <td>{row.line}</td>
              <td>{p.column ?? "—"}</td>
              <td>{p.message}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** Valid rows one of the template's designs cannot draw: warnings, not problems (the rows are still issued). */
function UndrawableTable({ rows }: { rows: UndrawableImportRow[] }) {
  return (
    <div className={local.scroll}>
      <table className={styles.table} aria-label="Rows whose text cannot be drawn">
        <thead>
          <tr>
            <th>Line</th>
            <th>Column</th>
            <th>Design</th>
            <th>Characters no bundled font has</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={`${row.line}-${i}`} data-line={row.line}>
              <td>{row.line}</td>
              <td>{row.column ?? "— (the template)"}</td>
              <td>{row.designName}</td>
              <td>{row.characters.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

async function ReportStep({ job, organization }: { job: ImportJobView; organization: { id: string; name: string } }) {
  const [invalid, warnings] = await Promise.all([
    invalidImportRows(organization.id, job.id, REPORT_LIMIT),
    importTextWarnings(organization, job.id, REPORT_LIMIT),
  ]);
  const invalidCount = job.totalRows - job.validRows;
  const warned = warnings.rowCount;
  return (
    <section className={styles.section}>
      <h2>3. Check</h2>
      <p data-testid="import-summary">
        <strong>{job.validRows.toLocaleString("en-US")}</strong> of {job.totalRows.toLocaleString("en-US")} rows are ready to issue.
        {invalidCount > 0
          ? ` ${invalidCount.toLocaleString("en-US")} row${invalidCount === 1 ? " has" : "s have"} problems and will be skipped (nothing is written for them)${warned > 0 ? "." : ":"}`
          : " No row has a problem."}
        {warned > 0 &&
          ` ${warned.toLocaleString("en-US")} of the rows ready to issue ${warned === 1 ? "has" : "have"} a warning: text a design cannot draw.`}
      </p>
      {invalidCount > 0 && (
        <>
          {warned > 0 && <h3>Problems (these rows are skipped)</h3>}
          <ProblemTable rows={invalid} label="Rows with problems" />
          {invalidCount > invalid.length && (
            <p className={styles.muted}>Showing the first {invalid.length.toLocaleString("en-US")} rows with problems.</p>
          )}
        </>
      )}
      {warned > 0 && (
        <div data-testid="import-text-warnings">
          <h3>Warnings (these rows are issued)</h3>
          <p className={`${styles.notice} ${styles.warn}`}>
            {warned === 1 ? "This row contains" : `These ${warned.toLocaleString("en-US")} rows contain`} characters no bundled font has.
            Issued as {warned === 1 ? "it is, it is" : "they are, they are"} still valid credentials, but the design named draws no
            certificate image for them: the wallet page shows such a credential as text, without that image to download or share. To give
            every recipient their certificate, correct the file and upload it again.
          </p>
          <UndrawableTable rows={warnings.rows} />
          {warnings.rows.length >= REPORT_LIMIT && (
            <p className={styles.muted}>Showing the first {REPORT_LIMIT.toLocaleString("en-US")} warnings.</p>
          )}
        </div>
      )}
      <p className={styles.muted}>Nothing has been issued yet. Fix the file and upload it again, or issue the valid rows now.</p>
      <h2>4. Confirm</h2>
      <ConfirmForm jobId={job.id} validRows={job.validRows} warnedRows={warned} />
    </section>
  );
}

async function ProgressStep({ job, organizationId }: { job: ImportJobView; organizationId: string }) {
  const [progress, failed, invalid] = await Promise.all([
    importProgress(organizationId, job.id),
    job.status === "done" || job.status === "failed" ? failedImportRows(organizationId, job.id, REPORT_LIMIT) : Promise.resolve([]),
    invalidImportRows(organizationId, job.id, REPORT_LIMIT),
  ]);
  const finished = job.status === "done" || job.status === "failed";
  return (
    <>
      <section className={styles.section}>
        <h2>{finished ? "Summary" : "Progress"}</h2>
        <ImportProgressView jobId={job.id} initial={progress} />
        {job.status === "done" && (
          <p data-testid="import-done">
            Finished: {job.issuedRows.toLocaleString("en-US")} credential{job.issuedRows === 1 ? "" : "s"} issued
            {job.failedRows > 0 ? `, ${job.failedRows.toLocaleString("en-US")} failed` : ""}
            {progress.invalidRows > 0 ? `, ${progress.invalidRows.toLocaleString("en-US")} skipped because of problems in the file` : ""}.
          </p>
        )}
        {job.status === "failed" && <p className={`${styles.notice} ${styles.bad}`}>{job.error}</p>}
        <p>
          <Link href={`/dashboard/credentials?template=${encodeURIComponent(job.groupId)}`}>See the credentials of {job.groupName}</Link>
        </p>
      </section>
      {failed.length > 0 && (
        <section className={styles.section}>
          <h2>Rows that could not be issued</h2>
          <table className={styles.table} aria-label="Rows that could not be issued">
            <thead>
              <tr>
                <th>Line</th>
                <th>Recipient</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {failed.map((row) => (
                <tr key={row.line} data-line={row.line}>
                  <td>{row.line}</td>
                  <td>{row.name}</td>
                  <td>{row.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {invalid.length > 0 && (
        <section className={styles.section}>
          <details>
            <summary>
              {progress.invalidRows.toLocaleString("en-US")} row{progress.invalidRows === 1 ? " was" : "s were"} skipped because of problems
              in the file
            </summary>
            <ProblemTable rows={invalid} label="Rows with problems" />
          </details>
        </section>
      )}
    </>
  );
}
