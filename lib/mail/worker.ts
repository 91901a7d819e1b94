// Delivers queued emails. Rows are claimed with a lease (a conditional update), so several workers or
// a restarted one never deliver a row at the same time; a worker that dies mid-delivery leaves a
// lease that expires, and the row is tried again with the same Message-ID. Failed attempts back off
// exponentially up to MAIL_MAX_ATTEMPTS, then the row stays visible as `failed`. Every attempt is recorded.
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

async function claim(id: string, now: Date): Promise<boolean> {
  const { count } = await db().emailOutbox.updateMany({
    where: { id, status: "queued", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
  });
  return count === 1;
}

async function deliverOne(id: string, transport: MailTransport): Promise<void> {
  const startedAt = new Date();
  if (!(await claim(id, startedAt))) return;
  const row = await db().emailOutbox.findUniqueOrThrow({ where: { id } });
  const cfg = config();
  try {
    const where = await transport.deliver({
      messageId: row.messageId,
      from: cfg.mailFrom,
      to: row.toAddress,
      subject: row.subject,
      html: row.html,
      text: row.text,
    });
    const finishedAt = new Date();
    await db().$transaction([
      db().emailOutbox.update({ where: { id }, data: { status: "sent", sentAt: finishedAt, leaseUntil: null, lastError: null } }),
      db().emailAttempt.create({ data: { id: newId("att"), outboxId: id, startedAt, finishedAt, outcome: "sent" } }),
    ]);
    log.info("mail_sent", { outboxId: id, attempt: row.attempts, via: where });
  } catch (error) {
    const failure = describeFailure(error);
    const finishedAt = new Date();
    const givingUp = row.attempts >= cfg.mailMaxAttempts;
    await db().$transaction([
      db().emailOutbox.update({
        where: { id },
        data: {
          status: givingUp ? "failed" : "queued",
          leaseUntil: null,
          lastError: failure,
          nextAttemptAt: new Date(finishedAt.getTime() + retryDelayMs(row.attempts, cfg.mailRetryBaseSeconds)),
        },
      }),
      db().emailAttempt.create({ data: { id: newId("att"), outboxId: id, startedAt, finishedAt, outcome: "failed", error: failure } }),
    ]);
    log.warn(givingUp ? "mail_failed" : "mail_retry", { outboxId: id, attempt: row.attempts, error: failure });
  }
}

/** One pass: deliver what is due. Returns how many rows were due. */
export async function deliverDueEmails(transport: MailTransport = mailTransport(), now = new Date()): Promise<number> {
  const due = await db().emailOutbox.findMany({
    where: { status: "queued", nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: { id: true },
  });
  for (let i = 0; i < due.length; i += PARALLEL) {
    await Promise.all(due.slice(i, i + PARALLEL).map((r) => deliverOne(r.id, transport).catch((e) => log.error("mail_worker_error", errorSummary(e)))));
  }
  return due.length;
}
