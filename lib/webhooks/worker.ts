// Delivers webhook events (CONTRACT.md section 11) with the outbox machinery mail uses (lib/outbox):
// due deliveries are claimed with a lease, each attempt is a signed POST through lib/net (public
// addresses only, no redirects, 10 s deadline, at most 64 KiB read), recorded as soon as it ends, and
// retried with exponential backoff while its event is younger than the retry window (24 h). A crash
// re-sends only the attempts in flight (at least once; receivers deduplicate by webhook-id).
//
// One receiver cannot hold up the others: each has at most PER_ENDPOINT of the PARALLEL slots, so a
// hanging one costs its own deliveries 10 s each and the rest go on.
//
// An endpoint is disabled, with the reason shown, once it has failed continuously (no successful
// attempt) for the retry window: 24 hours of failures, at least a dozen attempts.
import { config } from "../config";
import { db } from "../db";
import { newId } from "../db/ids";
import { Prisma } from "../generated/sqlite/client";
import { errorSummary, log } from "../log";
import { OutboundRequestError, outboundRequest } from "../net/outbound-request";
import { exponentialBackoffMs } from "../outbox/backoff";
import { claimLeasedRows, dueAndUnleased } from "../outbox/claim";
import { deliveryPool, type DeliveryPool } from "../outbox/pool";
import { openSigningSecret, signatureHeaders, WebhookSecretError } from "./secrets";

const PARALLEL = 32;
const PER_ENDPOINT = 8;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** What the lease allows beyond the attempt's deadline for writing its outcome. */
const RECORD_MARGIN_MS = 20_000;
const BACKOFF_CAP_MS = 4 * 3600_000;
const EXCERPT_CHARS = 1000;

type DeliveryRow = {
  id: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  createdAt: Date;
  event: { type: string; payload: string };
  endpoint: {
    url: string;
    organizationId: string;
    encryptedSecret: string;
    encryptedPreviousSecret: string | null;
    previousSecretExpiresAt: Date | null;
  };
};

/**
 * Due deliveries of enabled endpoints, oldest first, at most PER_ENDPOINT in flight per endpoint in this
 * process (counting those already in flight), for up to `limit` free slots.
 */
async function claimDue(now: Date, limit: number, inFlight: readonly DeliveryRow[]): Promise<DeliveryRow[]> {
  const busy = new Map<string, number>();
  for (const row of inFlight) busy.set(row.endpointId, (busy.get(row.endpointId) ?? 0) + 1);
  // Our own integers, written into the statement: PostgreSQL cannot type a bare parameter in a CASE.
  const perEndpoint =
    busy.size === 0
      ? Prisma.raw(String(PER_ENDPOINT))
      : Prisma.sql`CASE "endpointId" ${Prisma.join(
          [...busy].map(([id, n]) => Prisma.sql`WHEN ${id} THEN ${Prisma.raw(String(Math.max(0, PER_ENDPOINT - n)))}`),
          " ",
        )} ELSE ${Prisma.raw(String(PER_ENDPOINT))} END`;
  const candidates = Prisma.sql`
    SELECT "id" FROM (
      SELECT d."id", d."endpointId", d."nextAttemptAt",
             ROW_NUMBER() OVER (PARTITION BY d."endpointId" ORDER BY d."nextAttemptAt", d."id") AS "rank"
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE ${dueAndUnleased(now, "d")} AND e."enabled" = TRUE
    ) ranked
    WHERE "rank" <= ${perEndpoint}
    ORDER BY "nextAttemptAt" LIMIT ${limit}`;
  const { owner, claimed } = await claimLeasedRows("WebhookDelivery", candidates, now, ATTEMPT_TIMEOUT_MS + RECORD_MARGIN_MS);
  if (claimed === 0) return [];
  return db().webhookDelivery.findMany({
    where: { leaseOwner: owner, status: "queued" },
    select: {
      id: true,
      endpointId: true,
      eventId: true,
      attempts: true,
      createdAt: true,
      event: { select: { type: true, payload: true } },
      endpoint: { select: { url: true, organizationId: true, encryptedSecret: true, encryptedPreviousSecret: true, previousSecretExpiresAt: true } },
    },
  });
}

type Outcome = {
  row: DeliveryRow;
  startedAt: Date;
  durationMs: number;
  succeeded: boolean;
  responseStatus: number | null;
  error: string | null;
  excerpt: string | null;
};

/** The secrets that sign now: the current one, and the previous one during its 24 hours after a rotation. */
function activeSecrets(row: DeliveryRow, now: Date): string[] {
  const endpoint = { id: row.endpointId, organizationId: row.endpoint.organizationId };
  const secrets = [openSigningSecret(row.endpoint.encryptedSecret, endpoint)];
  const previous = row.endpoint.encryptedPreviousSecret;
  if (previous && row.endpoint.previousSecretExpiresAt && row.endpoint.previousSecretExpiresAt > now) secrets.push(openSigningSecret(previous, endpoint));
  return secrets;
}

/** The start of an answer's body as text we can store on both engines (PostgreSQL text holds no NUL). */
function excerptOf(body: Buffer): string | null {
  if (body.length === 0) return null;
  return body.subarray(0, EXCERPT_CHARS * 4).toString("utf8").slice(0, EXCERPT_CHARS).replace(/\u0000/g, "\uFFFD");
}

/** One signed POST. Never throws: every way it can go wrong is an outcome to record. */
export async function attemptDelivery(row: DeliveryRow): Promise<Outcome> {
  const startedAt = new Date();
  const base = { row, startedAt, responseStatus: null, excerpt: null };
  try {
    const headers = { "content-type": "application/json", ...signatureHeaders(row.eventId, row.event.payload, activeSecrets(row, startedAt), startedAt) };
    const answer = await outboundRequest(row.endpoint.url, {
      method: "POST",
      headers,
      body: row.event.payload,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    const succeeded = answer.status >= 200 && answer.status < 300;
    const redirected = answer.status >= 300 && answer.status < 400;
    return {
      ...base,
      durationMs: answer.durationMs,
      succeeded,
      responseStatus: answer.status,
      error: redirected ? `answered ${answer.status}: redirects are not followed` : null,
      excerpt: excerptOf(answer.body),
    };
  } catch (error) {
    const durationMs = Date.now() - startedAt.getTime();
    if (error instanceof OutboundRequestError || error instanceof WebhookSecretError) return { ...base, durationMs, succeeded: false, error: error.message };
    log.error("webhook_attempt_error", { deliveryId: row.id, ...errorSummary(error) });
    return { ...base, durationMs, succeeded: false, error: "internal error while sending" };
  }
}

function windowMs(): number {
  return config().webhookRetryWindowSeconds * 1000;
}

function disabledReason(since: Date, lastError: string): string {
  const hours = config().webhookRetryWindowSeconds / 3600;
  const span = hours >= 1 ? `${Math.round(hours)} hours` : `${config().webhookRetryWindowSeconds} seconds`;
  return `Disabled after failing continuously for ${span} (since ${since.toISOString()}); last attempt: ${lastError}`;
}

function failureText(o: Outcome): string {
  return o.error ?? `answered ${o.responseStatus}`;
}

/**
 * Writes a batch of outcomes in one transaction: each delivery's new state, every attempt, and each
 * endpoint's failing streak (a success ends it; a failure starts it or, past the window, disables the
 * endpoint). Deliveries whose endpoint was deleted meanwhile are skipped.
 */
async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  const cfg = config();
  await db().$transaction(async (tx) => {
    const present = new Set(
      (await tx.webhookDelivery.findMany({ where: { id: { in: outcomes.map((o) => o.row.id) } }, select: { id: true } })).map((d) => d.id),
    );
    const kept = outcomes.filter((o) => present.has(o.row.id));
    if (kept.length === 0) return;
    const now = new Date();
    const succeeded = kept.filter((o) => o.succeeded);
    const failed = kept.filter((o) => !o.succeeded);
    if (succeeded.length > 0) {
      await tx.webhookDelivery.updateMany({
        where: { id: { in: succeeded.map((o) => o.row.id) } },
        data: { status: "delivered", deliveredAt: now, leaseUntil: null, leaseOwner: null },
      });
    }
    for (const o of failed) {
      const finishedAt = o.startedAt.getTime() + o.durationMs;
      const givesUp = finishedAt - o.row.createdAt.getTime() >= windowMs();
      await tx.webhookDelivery.updateMany({
        where: { id: o.row.id },
        data: {
          status: givesUp ? "failed" : "queued",
          leaseUntil: null,
          leaseOwner: null,
          nextAttemptAt: new Date(finishedAt + exponentialBackoffMs(o.row.attempts, cfg.webhookRetryBaseSeconds * 1000, BACKOFF_CAP_MS)),
        },
      });
    }
    await tx.webhookAttempt.createMany({
      data: kept.map((o) => ({
        id: newId("wha"),
        deliveryId: o.row.id,
        endpointId: o.row.endpointId,
        eventId: o.row.eventId,
        eventType: o.row.event.type,
        attempt: o.row.attempts,
        outcome: o.succeeded ? "succeeded" : "failed",
        responseStatus: o.responseStatus,
        error: o.error,
        durationMs: o.durationMs,
        responseExcerpt: o.excerpt,
        createdAt: o.startedAt,
      })),
    });
    const healthy = new Set(succeeded.map((o) => o.row.endpointId));
    if (healthy.size > 0) await tx.webhookEndpoint.updateMany({ where: { id: { in: [...healthy] }, failingSince: { not: null } }, data: { failingSince: null } });
    const failing = new Map<string, Outcome>();
    for (const o of failed) if (!healthy.has(o.row.endpointId)) failing.set(o.row.endpointId, o);
    for (const [endpointId, last] of failing) {
      const firstFailure = failed.filter((o) => o.row.endpointId === endpointId).reduce((a, o) => (o.startedAt < a ? o.startedAt : a), last.startedAt);
      await tx.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: firstFailure } });
      const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { enabled: true, failingSince: true } });
      if (endpoint?.enabled && endpoint.failingSince && now.getTime() - endpoint.failingSince.getTime() >= windowMs()) {
        const reason = disabledReason(endpoint.failingSince, failureText(last));
        await tx.webhookEndpoint.updateMany({ where: { id: endpointId, enabled: true }, data: { enabled: false, disabledReason: reason } });
        log.warn("webhook_endpoint_disabled", { endpointId, failingSince: endpoint.failingSince.toISOString() });
      }
    }
  });
  for (const o of outcomes) {
    const fields = { deliveryId: o.row.id, eventId: o.row.eventId, attempt: o.row.attempts, durationMs: o.durationMs, status: o.responseStatus };
    if (o.succeeded) log.debug("webhook_delivered", fields);
    else log.warn("webhook_attempt_failed", { ...fields, error: failureText(o) });
  }
}

export type WebhookDelivery = DeliveryPool;

/** The pool of webhook deliveries (lib/outbox/pool.ts); `onSlotFree` runs after each outcome is recorded. */
export function webhookDelivery(onSlotFree: () => void = () => {}): WebhookDelivery {
  return deliveryPool<DeliveryRow, Outcome>({
    name: "webhook_worker_error",
    parallel: PARALLEL,
    claim: claimDue,
    deliver: attemptDelivery,
    record: recordOutcomes,
    onSlotFree,
  });
}

/** One pass (tests, scripts): claim what the slots take, deliver it, record it. Returns how many were claimed. */
export async function deliverDueWebhooks(now = new Date()): Promise<number> {
  const delivery = webhookDelivery();
  const claimed = await delivery.claim(now);
  await delivery.settled();
  return claimed;
}
