// Issues the rows of confirmed imports, in the server process beside the mail worker (lib/background.ts).
//
// Durability and concurrency follow the mail worker: a runner claims a job with a lease (a conditional
// update), renews it between batches, and a runner that dies leaves a lease that expires, after which
// any runner resumes the job where it stopped. A row becomes a credential through the same service
// call as the API's create-issue-send, and the row's `pending → done` update runs inside that same
// transaction and only if the row is still pending and the lease still ours: so a credential exists if
// and only if its row says so, and no row is issued twice, whatever two processes or a restart do.
import { randomUUID } from "node:crypto";
import { ApiError, invalidFields } from "../core/errors";
import { safeParseWithDetails } from "../core/validation";
import { db, type SqlClient } from "../db";
import { CreateCredentialBody, type CreateCredentialInput } from "../credentials/schema";
import { createIssueCredential, createIssueCredentialsTogether, createIssueSendCredential } from "../credentials/service";
import { errorSummary, log } from "../log";
import type { OrganizationRow } from "../organizations/service";

const LEASE_MS = 60_000;
/** Rows per lease renewal. */
const BATCH = 100;
/**
 * Rows issued in one transaction. A transaction per row spends most of its time on the transaction
 * itself (bench:import); 25 keeps the per-row outcomes (a refusal sends the batch through row by row)
 * while holding SQLite's single writer for only tens of milliseconds at a time.
 */
const ROWS_PER_TRANSACTION = 25;
/** Rows one pass works on before giving other jobs (and the loop) a turn. */
const ROWS_PER_PASS = 1000;
/** Internal errors in a row, without progress in between, before the job is stopped as `failed`. */
const MAX_RUN_ERRORS = 5;
/** After an internal error the job waits this long before it is tried again. */
const RETRY_AFTER_MS = 5_000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The lease moved to another runner (ours expired): stop without touching the job. */
class LeaseLost extends Error {}

type ClaimedJob = { id: string; organizationId: string; sendEmails: boolean; owner: string };

/** Claims the oldest confirmed job that no live lease holds. */
async function claimJob(now: Date): Promise<ClaimedJob | null> {
  const owner = randomUUID();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  // The conditions are repeated outside the subquery so that, on PostgreSQL, a job another runner
  // claimed meanwhile is re-checked and skipped (as in the mail worker's claim).
  const claimed = await db().$executeRaw`
    UPDATE "ImportJob" SET "leaseOwner" = ${owner}, "leaseUntil" = ${leaseUntil}, "status" = 'running', "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "ImportJob"
      WHERE "status" IN ('queued', 'running') AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "confirmedAt", "id" LIMIT 1)
    AND "status" IN ('queued', 'running') AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})`;
  if (claimed === 0) return null;
  const job = await db().importJob.findFirst({
    where: { leaseOwner: owner },
    select: { id: true, organizationId: true, sendEmails: true },
  });
  return job ? { ...job, owner } : null;
}

async function renewLease(job: ClaimedJob): Promise<boolean> {
  const { count } = await db().importJob.updateMany({
    where: { id: job.id, leaseOwner: job.owner },
    data: { leaseUntil: new Date(Date.now() + LEASE_MS) },
  });
  return count === 1;
}

/** Counts one processed row on the job, if the lease is still ours; a success also clears the error streak. */
async function countRow(tx: SqlClient, job: ClaimedJob, outcome: "issued" | "failed"): Promise<void> {
  const now = new Date();
  const counted =
    outcome === "issued"
      ? await tx.$executeRaw`
          UPDATE "ImportJob" SET "processedRows" = "processedRows" + 1, "issuedRows" = "issuedRows" + 1, "runErrors" = 0, "updatedAt" = ${now}
          WHERE "id" = ${job.id} AND "leaseOwner" = ${job.owner}`
      : await tx.$executeRaw`
          UPDATE "ImportJob" SET "processedRows" = "processedRows" + 1, "failedRows" = "failedRows" + 1, "runErrors" = 0, "updatedAt" = ${now}
          WHERE "id" = ${job.id} AND "leaseOwner" = ${job.owner}`;
  if (counted !== 1) throw new LeaseLost();
}

/** Marks the row done inside the credential's own transaction; any mismatch rolls the credential back. */
async function recordIssued(tx: SqlClient, job: ClaimedJob, rowId: string, credentialId: string): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE "ImportRow" SET "status" = 'done', "credentialId" = ${credentialId}, "processedAt" = ${new Date()}
    WHERE "id" = ${rowId} AND "status" = 'pending'`;
  if (updated !== 1) throw new LeaseLost();
  await countRow(tx, job, "issued");
}

/** Records the service's refusal (its ApiError message, as the API would answer). Nothing else was written. */
async function recordRefused(job: ClaimedJob, rowId: string, message: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE "ImportRow" SET "status" = 'failed', "error" = ${message}, "processedAt" = ${new Date()}
      WHERE "id" = ${rowId} AND "status" = 'pending'`;
    if (updated !== 1) throw new LeaseLost();
    await countRow(tx, job, "failed");
  });
}

/**
 * An internal error (not a refusal the service gave): the row stays pending and the job is retried a
 * little later, since such errors are usually passing (a locked database). Repeated without progress,
 * the job stops as `failed` with its remaining rows unprocessed, instead of retrying forever.
 */
async function recordInternalError(job: ClaimedJob, line: number): Promise<void> {
  const now = new Date();
  const updated = await db().importJob.updateMany({
    where: { id: job.id, leaseOwner: job.owner },
    data: { runErrors: { increment: 1 }, leaseUntil: new Date(now.getTime() + RETRY_AFTER_MS) },
  });
  if (updated.count !== 1) return;
  await db().importJob.updateMany({
    where: { id: job.id, leaseOwner: job.owner, runErrors: { gte: MAX_RUN_ERRORS } },
    data: {
      status: "failed",
      error: `Stopped at line ${line} after repeated internal errors; the rows from there on were not processed. Nothing was written for them.`,
      finishedAt: now,
      leaseOwner: null,
      leaseUntil: null,
    },
  });
}

type Outcome = "issued" | "refused" | "stop";
type PendingRow = { id: string; line: number; input: string };

/** Marks a whole batch done inside its credentials' transaction; any row no longer pending rolls all back. */
async function recordBatchIssued(
  tx: SqlClient,
  job: ClaimedJob,
  rows: readonly PendingRow[],
  credentials: { id: string }[],
): Promise<void> {
  const now = new Date();
  for (const [i, row] of rows.entries()) {
    const updated = await tx.$executeRaw`
      UPDATE "ImportRow" SET "status" = 'done', "credentialId" = ${credentials[i]!.id}, "processedAt" = ${now}
      WHERE "id" = ${row.id} AND "status" = 'pending'`;
    if (updated !== 1) throw new LeaseLost();
  }
  const counted = await tx.$executeRaw`
    UPDATE "ImportJob" SET "processedRows" = "processedRows" + ${rows.length}, "issuedRows" = "issuedRows" + ${rows.length},
      "runErrors" = 0, "updatedAt" = ${now}
    WHERE "id" = ${job.id} AND "leaseOwner" = ${job.owner}`;
  if (counted !== 1) throw new LeaseLost();
}

/**
 * Issues the rows together in one transaction. "one-by-one" when that did not work (a row was refused,
 * or something else went wrong): nothing was written, and each row then gets its own transaction and
 * its own outcome.
 */
async function issueTogether(
  job: ClaimedJob,
  organization: OrganizationRow,
  rows: readonly PendingRow[],
): Promise<"issued" | "one-by-one" | "stop"> {
  const inputs: CreateCredentialInput[] = [];
  for (const row of rows) {
    const parsed = safeParseWithDetails(CreateCredentialBody, JSON.parse(row.input));
    if (!parsed.ok) return "one-by-one";
    inputs.push(parsed.data);
  }
  try {
    await createIssueCredentialsTogether(organization, inputs, {
      send: job.sendEmails,
      alongside: (tx, credentials) => recordBatchIssued(tx, job, rows, credentials),
    });
    return "issued";
  } catch (error) {
    return error instanceof LeaseLost ? "stop" : "one-by-one";
  }
}

async function processRow(job: ClaimedJob, organization: OrganizationRow, row: PendingRow): Promise<Outcome> {
  const issue = job.sendEmails ? createIssueSendCredential : createIssueCredential;
  try {
    // The input was produced by CreateCredentialBody when the rows were checked; parsing it again is
    // cheap and keeps "services take validated input" true for anything that changed the row since.
    const parsed = safeParseWithDetails(CreateCredentialBody, JSON.parse(row.input));
    if (!parsed.ok) throw invalidFields(parsed.details);
    const input = parsed.data;
    await issue(organization, input, { alongside: (tx, credential) => recordIssued(tx, job, row.id, credential.id) });
    return "issued";
  } catch (error) {
    if (error instanceof LeaseLost) return "stop";
    if (error instanceof ApiError) {
      try {
        await recordRefused(job, row.id, error.message);
        return "refused";
      } catch (recordError) {
        if (recordError instanceof LeaseLost) return "stop";
        throw recordError;
      }
    }
    log.error("import_row_failed", { jobId: job.id, line: row.line, ...errorSummary(error) });
    await recordInternalError(job, row.line);
    return "stop";
  }
}

async function finishIfComplete(job: ClaimedJob): Promise<void> {
  const pending = await db().importRow.count({ where: { jobId: job.id, status: "pending" } });
  if (pending > 0) return;
  await db().importJob.updateMany({
    where: { id: job.id, leaseOwner: job.owner },
    data: { status: "done", finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
  });
  log.info("import_done", { jobId: job.id });
}

/**
 * One pass: claims a job and issues up to ROWS_PER_PASS of its pending rows, in file order. Returns
 * how many rows it processed (0 when there was nothing to do), so the caller can go on while there is.
 */
export async function runImportJobs(now = new Date()): Promise<number> {
  const job = await claimJob(now);
  if (!job) return 0;
  const organization = await db().organization.findUniqueOrThrow({
    where: { id: job.organizationId },
    select: { id: true, slug: true, name: true, plan: true, monthlyIssueQuota: true },
  });
  let processed = 0;
  while (processed < ROWS_PER_PASS) {
    const rows = await db().importRow.findMany({
      where: { jobId: job.id, status: "pending" },
      orderBy: { line: "asc" },
      take: BATCH,
      select: { id: true, line: true, input: true },
    });
    if (rows.length === 0) break;
    for (let i = 0; i < rows.length; i += ROWS_PER_TRANSACTION) {
      // On SQLite every query completes synchronously underneath its promise, so a pass would keep the
      // event loop to itself from start to end: HTTP requests (the progress page's polls among them)
      // would wait seconds. Giving the loop a turn between transactions costs microseconds.
      await yieldToEventLoop();
      const chunk = rows.slice(i, i + ROWS_PER_TRANSACTION);
      const together = await issueTogether(job, organization, chunk);
      if (together === "stop") return processed;
      if (together === "issued") {
        processed += chunk.length;
        continue;
      }
      for (const row of chunk) {
        await yieldToEventLoop();
        const outcome = await processRow(job, organization, row);
        if (outcome === "stop") return processed;
        processed++;
      }
    }
    if (!(await renewLease(job))) return processed;
  }
  await finishIfComplete(job);
  // Let go of an unfinished job so the next pass (here or in another process) can claim it at once.
  await db().importJob.updateMany({ where: { id: job.id, leaseOwner: job.owner }, data: { leaseOwner: null, leaseUntil: null } });
  return processed;
}
