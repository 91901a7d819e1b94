import Link from "next/link";
import { requireMember } from "@/lib/auth/member";
import { listGroups } from "@/lib/groups/service";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "@/lib/imports/csv";
import { listImportJobs } from "@/lib/imports/service";
import styles from "../../dashboard.module.css";
import { UploadForm } from "./import-forms";

export const metadata = { title: "Import credentials" };

const STATUS_TEXT: Record<string, string> = {
  uploaded: "columns not mapped yet",
  validated: "checked, not confirmed",
  queued: "waiting to start",
  running: "issuing",
  done: "done",
  failed: "stopped",
};

export default async function ImportPage() {
  const member = await requireMember();
  const [groups, jobs] = await Promise.all([listGroups(member.organization.id, { limit: 100 }), listImportJobs(member.organization.id)]);
  return (
    <>
      <p>
        <Link href="/dashboard/credentials">← Credentials</Link>
      </p>
      <h1>Import credentials from a CSV file</h1>
      <p className={styles.lead}>
        One row per credential, with a header row naming the columns. You map the columns to the credential&apos;s fields next, and see
        every problem before anything is issued.
      </p>
      <section className={styles.section}>
        <h2>1. Upload</h2>
        {groups.data.length === 0 ? (
          <p>
            Create a <Link href="/dashboard/templates">credential template</Link> first.
          </p>
        ) : (
          <UploadForm templates={groups.data.map((g) => ({ id: g.id, name: g.name }))} maxBytes={CSV_MAX_BYTES} maxRows={CSV_MAX_ROWS} />
        )}
      </section>
      {jobs.length > 0 && (
        <section className={styles.section}>
          <h2>Recent imports</h2>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>File</th>
                <th>Template</th>
                <th>Rows</th>
                <th>Status</th>
                <th>Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id}>
                  <td>
                    <Link href={`/dashboard/credentials/import/${job.id}`}>{job.fileName}</Link>
                  </td>
                  <td>{job.groupName}</td>
                  <td>
                    {job.status === "done" || job.status === "failed"
                      ? `${job.issuedRows} issued, ${job.failedRows} failed, ${job.totalRows - job.validRows} skipped`
                      : job.totalRows.toLocaleString("en-US")}
                  </td>
                  <td>
                    <span className={job.status === "done" ? styles.pill : `${styles.pill} ${styles.pillGrey}`}>
                      {STATUS_TEXT[job.status] ?? job.status}
                    </span>
                  </td>
                  <td>{job.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
