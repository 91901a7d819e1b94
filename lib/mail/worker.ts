// Delivers queued emails. Rows are claimed with a lease (a conditional update), so several workers or
// a restarted one never deliver a row at the same time; a worker that dies mid-delivery leaves a
// lease that expires, and the row is tried again with the same Message-ID. Failed attempts back off
// exponentially up to MAIL_MAX_ATTEMPTS, then the row stays visible as `failed`. Every attempt is recorded.
import { randomUUID } from "node:crypto";
import { config } from "../config";
import { db } from "../db";
import { newId } from "../db/ids";
import { errorSummary, log } from "../log";
import { mailTransport, type MailTransport } from "./transport";

const LEASE_MS = 60_000;
const BATCH = 25;
const PARALLEL = 8;

export function retryDelayMs(attempts: number, baseSeconds: number): number {
  return Math.min(3_600_000, baseSeconds * 1000 * 2 ** Math.max(0, attempts - 1));
}

/** A delivery error as it may be stored and logged: its kind and SMTP codes, never credentials. */
function describeFailure(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [typeof e.code === "string" ? e.code : (error as Error)?.name ?? "Error"];
  if (typeof e.responseCode === "number") parts.push(`SMTP ${e.responseCode}`);
  if (typeof e.command === "string") parts.push(`during ${e.command}`);
  return parts.join(" ");
}

type OutboxRow = { id: string; messageId: string; toAddress: string; subject: string; html: string; text: string; attempts: number };

/**
 * Claims up to BATCH due rows in one statement. The lease condition is repeated outside the subquery
 * so that, on PostgreSQL, a row another worker claimed meanwhile is re-checked and skipped.
 */
async function claimDue(now: Date): Promise<OutboxRow[]> {
  const owner = randomUUID();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const claimed = await db().$executeRaw`
    UPDATE "EmailOutbox" SET "leaseUntil" = ${leaseUntil}, "leaseOwner" = ${owner}, "attempts" = "attempts" + 1
    WHERE "id" IN (
      SELECT "id" FROM "EmailOutbox"
      WHERE "status" = 'queued' AND "nextAttemptAt" <= ${now} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextAttemptAt" LIMIT ${BATCH})
    AND "status" = 'queued' AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})`;
  if (claimed === 0) return [];
  return db().emailOutbox.findMany({
    where: { leaseOwner: owner, status: "queued" },
    select: { id: true, messageId: true, toAddress: true, subject: true, html: true, text: true, attempts: true },
  });
}

type Outcome = { row: OutboxRow; startedAt: Date; finishedAt: Date; via?: string; failure?: string };

async function deliverOne(row: OutboxRow, transport: MailTransport): Promise<Outcome> {
  const startedAt = new Date();
  try {
    const via = await transport.deliver({
      messageId: row.messageId,
      from: config().mailFrom,
      to: row.toAddress,
      subject: row.subject,
      html: row.html,
      text: row.text,
    });
    return { row, startedAt, finishedAt: new Date(), via };
  } catch (error) {
    return { row, startedAt, finishedAt: new Date(), failure: describeFailure(error) };
  }
}

/** Writes a chunk's outcomes: one statement for all that were sent, one per failure, every attempt recorded. */
async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  const cfg = config();
  const sent = outcomes.filter((o) => o.failure === undefined);
  const failed = outcomes.filter((o) => o.failure !== undefined);
  await db().$transaction([
    db().emailOutbox.updateMany({
      where: { id: { in: sent.map((o) => o.row.id) } },
      data: { status: "sent", sentAt: new Date(), leaseUntil: null, leaseOwner: null, lastError: null },
    }),
    ...failed.map((o) =>
      db().emailOutbox.update({
        where: { id: o.row.id },
        data: {
          status: o.row.attempts >= cfg.mailMaxAttempts ? "failed" : "queued",
          leaseUntil: null,
          leaseOwner: null,
          lastError: o.failure,
          nextAttemptAt: new Date(o.finishedAt.getTime() + retryDelayMs(o.row.attempts, cfg.mailRetryBaseSeconds)),
        },
      }),
    ),
    db().emailAttempt.createMany({
      data: outcomes.map((o) => ({
        id: newId("att"),
        outboxId: o.row.id,
        startedAt: o.startedAt,
        finishedAt: o.finishedAt,
        outcome: o.failure === undefined ? "sent" : "failed",
        error: o.failure ?? null,
      })),
    }),
  ]);
  for (const o of sent) log.info("mail_sent", { outboxId: o.row.id, attempt: o.row.attempts, via: o.via });
  for (const o of failed) {
    const givingUp = o.row.attempts >= cfg.mailMaxAttempts;
    log.warn(givingUp ? "mail_failed" : "mail_retry", { outboxId: o.row.id, attempt: o.row.attempts, error: o.failure });
  }
}

/** One pass: claim what is due and deliver it. Returns how many rows were claimed. */
export async function deliverDueEmails(transport: MailTransport = mailTransport(), now = new Date()): Promise<number> {
  const rows = await claimDue(now);
  // Recorded chunk by chunk: a crash can only make the last chunk be delivered again (same Message-ID).
  for (let i = 0; i < rows.length; i += PARALLEL) {
    const outcomes = await Promise.all(rows.slice(i, i + PARALLEL).map((r) => deliverOne(r, transport)));
    await recordOutcomes(outcomes).catch((e) => log.error("mail_worker_error", errorSummary(e)));
  }
  return rows.length;
}
