// Delivers queued emails. Rows are claimed with a lease (a conditional update), so several workers or
// a restarted one never deliver a row at the same time; a worker that dies mid-delivery leaves a
// lease that expires, and the row is tried again with the same Message-ID. Every attempt has a
// deadline shorter than the lease, and each delivery's outcome is recorded as soon as it ends, so a
// relay that never answers costs one slot for one attempt, not the queue. Failed attempts back off
// exponentially up to MAIL_MAX_ATTEMPTS (a permanent SMTP refusal at once), then the row stays visible
// as `failed`. Every attempt is recorded.
import { randomUUID } from "node:crypto";
import { config } from "../config";
import { db } from "../db";
import { newId } from "../db/ids";
import { errorSummary, log } from "../log";
import { fromAddress } from "./sender";
import { mailTransport, SMTP_POOL_CONNECTIONS, type MailTransport } from "./transport";

/** Deliveries in flight at once: one per pooled SMTP connection. */
const PARALLEL = SMTP_POOL_CONNECTIONS;
/** What the lease allows beyond the attempt's deadline for writing its outcome. */
const RECORD_MARGIN_MS = 40_000;

function attemptTimeoutMs(): number {
  return config().mailAttemptTimeoutSeconds * 1000;
}

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

/**
 * A 5xx answer to RCPT TO or DATA refuses this recipient or this message, and a retry gets the same
 * answer. A 5xx to the greeting, EHLO, AUTH or MAIL FROM refuses us or our sender (a setting to fix,
 * the same for every email): that is retried, so a configuration mistake does not fail all queued mail.
 */
function isPermanent(error: unknown): boolean {
  const e = error as { responseCode?: unknown; command?: unknown };
  const refused = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
  return refused && (e.command === "RCPT TO" || e.command === "DATA");
}

type OutboxRow = {
  id: string;
  messageId: string;
  fromName: string | null;
  replyTo: string | null;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  attempts: number;
};

/**
 * Claims up to `limit` due rows in one statement. The lease condition is repeated outside the subquery
 * so that, on PostgreSQL, a row another worker claimed meanwhile is re-checked and skipped. The lease
 * outlasts the attempt's deadline plus time to record it: it cannot run out while a delivery is live.
 */
async function claimDue(now: Date, limit: number): Promise<OutboxRow[]> {
  const owner = randomUUID();
  const leaseUntil = new Date(now.getTime() + attemptTimeoutMs() + RECORD_MARGIN_MS);
  const claimed = await db().$executeRaw`
    UPDATE "EmailOutbox" SET "leaseUntil" = ${leaseUntil}, "leaseOwner" = ${owner}, "attempts" = "attempts" + 1
    WHERE "id" IN (
      SELECT "id" FROM "EmailOutbox"
      WHERE "status" = 'queued' AND "nextAttemptAt" <= ${now} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextAttemptAt" LIMIT ${limit})
    AND "status" = 'queued' AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})`;
  if (claimed === 0) return [];
  return db().emailOutbox.findMany({
    where: { leaseOwner: owner, status: "queued" },
    select: { id: true, messageId: true, fromName: true, replyTo: true, toAddress: true, subject: true, html: true, text: true, attempts: true },
  });
}

type Outcome = { row: OutboxRow; startedAt: Date; finishedAt: Date; via?: string; failure?: string; permanent?: boolean };

const TIMED_OUT = Symbol("timed out");

/** One attempt, never longer than the attempt timeout: a transport that never settles is a failure too. */
async function deliverOne(row: OutboxRow, transport: MailTransport): Promise<Outcome> {
  const startedAt = new Date();
  const timeoutMs = attemptTimeoutMs();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)));
  try {
    const mail = {
      messageId: row.messageId,
      from: fromAddress(row.fromName),
      replyTo: row.replyTo,
      to: row.toAddress,
      subject: row.subject,
      html: row.html,
      text: row.text,
    };
    // An abandoned delivery may still end later (its rejection is handled by the race); the SMTP
    // transport's own timeouts close its connection.
    const via = await Promise.race([transport.deliver(mail), deadline]);
    if (via === TIMED_OUT) return { row, startedAt, finishedAt: new Date(), failure: `ETIMEDOUT no outcome within ${timeoutMs / 1000} s` };
    return { row, startedAt, finishedAt: new Date(), via };
  } catch (error) {
    return { row, startedAt, finishedAt: new Date(), failure: describeFailure(error), permanent: isPermanent(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Writes outcomes: one statement for all that were sent, one per failure, every attempt recorded. */
async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  const cfg = config();
  const givesUp = (o: Outcome) => o.permanent === true || o.row.attempts >= cfg.mailMaxAttempts;
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
          status: givesUp(o) ? "failed" : "queued",
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
    const fields = { outboxId: o.row.id, attempt: o.row.attempts, error: o.failure, ...(o.permanent ? { permanent: true } : {}) };
    if (givesUp(o)) log.warn("mail_failed", fields);
    else log.warn("mail_retry", fields);
  }
}

/**
 * Records each outcome as soon as it comes, one write at a time: outcomes that end while a write is
 * under way go together in the next one (a burst costs few transactions, a slow delivery none).
 * Resolves once the write that holds the outcome is done (or failed and was logged).
 */
function outcomeRecorder(): (outcome: Outcome) => Promise<void> {
  let waiting: { outcome: Outcome; written: () => void }[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await recordOutcomes(batch.map((w) => w.outcome)).catch((e) => log.error("mail_worker_error", errorSummary(e)));
      for (const w of batch) w.written();
    }
    writing = false;
  };
  return (outcome) =>
    new Promise<void>((written) => {
      waiting.push({ outcome, written });
      if (!writing) void drain();
    });
}

export type MailDelivery = {
  /** Claims due rows for the free slots and starts delivering them; resolves once they are claimed, with how many. */
  claim(now?: Date): Promise<number>;
  /** Resolves when every delivery started so far has its outcome recorded. */
  settled(): Promise<void>;
};

/**
 * Up to PARALLEL deliveries in flight, each recorded when it ends: a slow one holds only its own slot.
 * Rows are claimed only for free slots, so a claimed row starts at once and its lease runs during its
 * attempt, not while it waits. `onSlotFree` runs after each outcome is recorded (to claim again).
 * A crash can re-deliver only the rows in flight, whose outcome was not recorded (same Message-ID).
 */
export function mailDelivery(transport: MailTransport, onSlotFree: () => void = () => {}): MailDelivery {
  const inFlight = new Set<Promise<void>>();
  let reserved = 0; // slots of a claim under way, so that two claims at once cannot take too many rows
  const record = outcomeRecorder();
  return {
    async claim(now = new Date()) {
      const free = PARALLEL - inFlight.size - reserved;
      if (free <= 0) return 0;
      reserved += free;
      let rows: OutboxRow[];
      try {
        rows = await claimDue(now, free);
      } finally {
        reserved -= free;
      }
      for (const row of rows) {
        const done: Promise<void> = deliverOne(row, transport)
          .then(record)
          .finally(() => {
            inFlight.delete(done);
            onSlotFree();
          });
        inFlight.add(done);
      }
      return rows.length;
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}

/** One pass (tests, scripts): claim what the slots take, deliver it, record it. Returns how many rows were claimed. */
export async function deliverDueEmails(transport: MailTransport = mailTransport(), now = new Date()): Promise<number> {
  const delivery = mailDelivery(transport);
  const claimed = await delivery.claim(now);
  await delivery.settled();
  return claimed;
}
