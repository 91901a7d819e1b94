// Delivers queued emails. Rows are claimed with a lease (a conditional update), so several workers or
// a restarted one never deliver a row at the same time; a worker that dies mid-delivery leaves a
// lease that expires, and the row is tried again with the same Message-ID. Every attempt has a
// deadline shorter than the lease, and each delivery's outcome is recorded as soon as it ends, so a
// relay that never answers costs one slot for one attempt, not the queue. Failed attempts back off
// exponentially up to MAIL_MAX_ATTEMPTS (a permanent SMTP refusal at once), then the row stays visible
// as `failed`. Every attempt is recorded.
import { config } from "../config";
import { db, type SqlClient } from "../db";
import { directTransaction } from "../db/direct-transaction";
import { directRows } from "../db/direct-read";
import { newId } from "../db/ids";
import { Prisma } from "../generated/sqlite/client";
import { errorSummary, log } from "../log";
import { exponentialBackoffMs } from "../outbox/backoff";
import { claimLeasedRows, dueAndUnleased, idList } from "../outbox/claim";
import { deliveryPool, type DeliveryPool } from "../outbox/pool";
import { drawableCertificate } from "../previews/credential-designs";
import { composeEmail } from "./composition";
import { refreshMailOutcomes } from "./credential-outcome";
import { fromAddress } from "./sender";
import { mailTransport, SMTP_POOL_CONNECTIONS, type MailTransport } from "./transport";

/**
 * Deliveries in flight per SMTP connection: one. A message queued inside the pool behind others still
 * counts against its attempt deadline; under load it can pass it while nodemailer still holds it, and
 * the retry then sends it a second time (bench:issue saw 2 such duplicates per 2,000 with 8 in flight on
 * 5 connections, and 284 with 4 per connection). So the pool never holds more than it can send.
 */
const IN_FLIGHT_PER_CONNECTION = 1;
/** While deliveries are in flight, claims come at most this often, each taking a batch of rows. */
const CLAIM_INTERVAL_MS = 50;
/**
 * Rows claimed ahead per SMTP connection, held until a connection is free. Claiming only for free
 * connections capped delivery at (connections / CLAIM_INTERVAL_MS): 100 emails/s on 5 connections,
 * 38 s for 2,000. Held rows start their attempt (and its deadline) only when handed to a connection.
 */
const PREFETCH_PER_CONNECTION = 20;
/**
 * A held row not started within half an attempt's deadline is given back to the queue (a slow relay):
 * the lease covers the hold, the attempt and recording it.
 */
function maxHoldMs(): number {
  return attemptTimeoutMs() / 2;
}
/** Outcomes are written together after this pause: a stream of deliveries costs one write per batch. */
const RECORD_BATCH_MS = 20;
/** What the lease allows beyond the attempt's deadline for writing its outcome. */
const RECORD_MARGIN_MS = 40_000;

function attemptTimeoutMs(): number {
  return config().mailAttemptTimeoutSeconds * 1000;
}

/** Doubling from the base, at most an hour (lib/outbox/backoff.ts). */
export function retryDelayMs(attempts: number, baseSeconds: number): number {
  return exponentialBackoffMs(attempts, baseSeconds * 1000, 3_600_000);
}

/** A delivery error as it may be stored and logged: its kind and SMTP codes, never credentials. */
function describeFailure(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [typeof e.code === "string" ? e.code : ((error as Error)?.name ?? "Error")];
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
  leaseOwner: string | null;
  messageId: string;
  fromName: string | null;
  replyTo: string | null;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  composition: string | null;
  attempts: number;
};

/**
 * Claims up to `limit` due rows in one statement (lib/outbox). The lease outlasts the longest a row is
 * held for its connection, the attempt's deadline and time to record it: it cannot run out while a
 * delivery is live.
 */
async function claimDue(now: Date, limit: number): Promise<OutboxRow[]> {
  const candidates = Prisma.sql`SELECT "id" FROM "EmailOutbox" WHERE ${dueAndUnleased(now)} ORDER BY "nextAttemptAt" LIMIT ${limit}`;
  // The claim and the read of what it took in one transaction past the Prisma client, as the outcomes
  // are written: these run several times a second while mail streams out (bench:import's profile had
  // the client's per-statement work at a fifth of the mail worker's CPU).
  return directTransaction(async (tx) => {
    const { owner, claimed } = await claimLeasedRows(
      "EmailOutbox",
      candidates,
      now,
      maxHoldMs() + attemptTimeoutMs() + RECORD_MARGIN_MS,
      tx,
    );
    if (claimed === 0) return [];
    const rows = await tx.$queryRaw<(Omit<OutboxRow, "attempts"> & { attempts: unknown })[]>`
      SELECT "id", "leaseOwner", "messageId", "fromName", "replyTo", "toAddress", "subject", "html", "text", "composition", "attempts"
      FROM "EmailOutbox" WHERE "leaseOwner" = ${owner} AND "status" = 'queued' ORDER BY "nextAttemptAt" ASC`;
    return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
  });
}

/** Rows held too long for a connection go back unattempted: lease cleared, the claim's attempt uncounted. */
async function releaseHeld(rows: OutboxRow[]): Promise<void> {
  const owners = new Set(rows.map((r) => r.leaseOwner));
  for (const owner of owners) {
    if (owner === null) continue;
    await db().emailOutbox.updateMany({
      where: { id: { in: rows.filter((r) => r.leaseOwner === owner).map((r) => r.id) }, leaseOwner: owner, status: "queued" },
      data: { leaseUntil: null, leaseOwner: null, attempts: { decrement: 1 } },
    });
  }
}

type Outcome = {
  row: OutboxRow;
  startedAt: Date;
  finishedAt: Date;
  via?: string;
  failure?: string;
  permanent?: boolean;
  skipped?: boolean;
};

/**
 * Whether the row is still this claim's to send. A row can wait up to maxHoldMs for its connection, and
 * meanwhile its credential may be revoked or deleted, or a reset link used: those cancel the email
 * (status `cancelled`, lease cleared), and it must not go out.
 */
async function stillOurs(row: OutboxRow): Promise<boolean> {
  const rows =
    await directRows`SELECT "id" FROM "EmailOutbox" WHERE "id" = ${row.id} AND "status" = 'queued' AND "leaseOwner" = ${row.leaseOwner}`;
  return rows.length > 0;
}

const TIMED_OUT = Symbol("timed out");

/** One attempt, never longer than the attempt timeout: a transport that never settles is a failure too. */
async function deliverOne(row: OutboxRow, transport: MailTransport): Promise<Outcome> {
  const startedAt = new Date();
  if (!(await stillOurs(row))) return { row, startedAt, finishedAt: startedAt, skipped: true };
  // A credential email is written here, from what its row keeps; an account email was written whole.
  // A failure to write it is our fault, not the relay's: said at error level, and retried like one.
  let content: { subject: string; html: string; text: string };
  try {
    content = row.composition === null ? row : await composeEmail(row.composition, drawableCertificate);
  } catch (error) {
    log.error("mail_compose_failed", { outboxId: row.id, ...errorSummary(error) });
    return { row, startedAt, finishedAt: new Date(), failure: "the email could not be composed" };
  }
  const timeoutMs = attemptTimeoutMs();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)));
  try {
    const mail = {
      messageId: row.messageId,
      from: fromAddress(row.fromName),
      replyTo: row.replyTo,
      to: row.toAddress,
      subject: content.subject,
      html: content.html,
      text: content.text,
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
  // A row cancelled while its attempt was under way: if the attempt sent it, it is `sent` (it did go
  // out); if it failed, it stays `cancelled` rather than being queued again.
  const attempted = outcomes.filter((o) => !o.skipped);
  if (attempted.length === 0) return;
  outcomes = attempted;
  const sent = outcomes.filter((o) => o.failure === undefined);
  const failed = outcomes.filter((o) => o.failure !== undefined);
  const now = new Date();
  await directTransaction((tx) => writeOutcomes(tx, sent, failed, givesUp, now));
  for (const o of sent) log.info("mail_sent", { outboxId: o.row.id, attempt: o.row.attempts, via: o.via });
  for (const o of failed) {
    const fields = { outboxId: o.row.id, attempt: o.row.attempts, error: o.failure, ...(o.permanent ? { permanent: true } : {}) };
    if (givesUp(o)) log.warn("mail_failed", fields);
    else log.warn("mail_retry", fields);
  }
}

/** Attempts written per INSERT: a few statement texts, whatever the batch's size. */
const ATTEMPTS_PER_INSERT = 16;

/** The outcomes' statements, in the caller's transaction (plain SQL: past the Prisma client). */
async function writeOutcomes(
  tx: SqlClient,
  sent: Outcome[],
  failed: Outcome[],
  givesUp: (o: Outcome) => boolean,
  now: Date,
): Promise<void> {
  const cfg = config();
  for (let i = 0; i < sent.length; i += 256) {
    const ids = sent.slice(i, i + 256).map((o) => o.row.id);
    await tx.$executeRaw`
      UPDATE "EmailOutbox" SET "status" = 'sent', "sentAt" = ${now}, "leaseUntil" = NULL, "leaseOwner" = NULL, "lastError" = NULL, "updatedAt" = ${now}
      WHERE "id" IN (${idList(ids)})`;
  }
  for (const o of failed) {
    const next = new Date(o.finishedAt.getTime() + retryDelayMs(o.row.attempts, cfg.mailRetryBaseSeconds));
    await tx.$executeRaw`
      UPDATE "EmailOutbox" SET "status" = ${givesUp(o) ? "failed" : "queued"}, "leaseUntil" = NULL, "leaseOwner" = NULL,
        "lastError" = ${o.failure ?? null}, "nextAttemptAt" = ${next}, "updatedAt" = ${now}
      WHERE "id" = ${o.row.id} AND "status" = 'queued'`;
  }
  // The funnel's email outcome of their credentials: a retry left queued changes nothing.
  const settled = [...sent, ...failed.filter(givesUp)].map((o) => o.row.id);
  for (let i = 0; i < settled.length; i += 256) await refreshMailOutcomes(tx, { outboxIds: settled.slice(i, i + 256) });
  const attempts = [...sent, ...failed];
  for (let i = 0; i < attempts.length; i += ATTEMPTS_PER_INSERT) {
    const rows = attempts
      .slice(i, i + ATTEMPTS_PER_INSERT)
      .map(
        (o) =>
          Prisma.sql`(${newId("att")}, ${o.row.id}, ${o.startedAt}, ${o.finishedAt}, ${o.failure === undefined ? "sent" : "failed"}, ${o.failure ?? null})`,
      );
    await tx.$executeRaw`
      INSERT INTO "EmailAttempt" ("id", "outboxId", "startedAt", "finishedAt", "outcome", "error") VALUES ${Prisma.join(rows)}`;
  }
}

export type MailDelivery = DeliveryPool;

/**
 * One delivery per SMTP connection in flight (IN_FLIGHT_PER_CONNECTION), claimed in batches at most
 * every CLAIM_INTERVAL_MS with PREFETCH_PER_CONNECTION more rows held ready, their outcomes written in batches (lib/outbox/pool.ts). A slot is free again
 * when its attempt ends; its row stays leased until the outcome is written. `onSlotFree` runs when a
 * slot frees (to claim again). A crash can re-deliver only the rows whose outcome was not recorded
 * (same Message-ID).
 */
export function mailDelivery(transport: MailTransport, onSlotFree: () => void = () => {}): MailDelivery {
  return deliveryPool<OutboxRow, Outcome>({
    name: "mail_worker_error",
    parallel: (transport.connections ?? SMTP_POOL_CONNECTIONS) * IN_FLIGHT_PER_CONNECTION,
    prefetch: (transport.connections ?? SMTP_POOL_CONNECTIONS) * PREFETCH_PER_CONNECTION,
    maxHoldMs: maxHoldMs(),
    release: releaseHeld,
    claimIntervalMs: CLAIM_INTERVAL_MS,
    recordBatchMs: RECORD_BATCH_MS,
    freeSlotWhenAttempted: true,
    claim: (now, limit) => claimDue(now, limit),
    deliver: (row) => deliverOne(row, transport),
    record: recordOutcomes,
    onSlotFree,
  });
}

/** One pass (tests, scripts): claim what the slots take, deliver it, record it. Returns how many rows were claimed. */
export async function deliverDueEmails(transport: MailTransport = mailTransport(), now = new Date()): Promise<number> {
  const delivery = mailDelivery(transport);
  const claimed = await delivery.claim(now);
  await delivery.settled();
  return claimed;
}
