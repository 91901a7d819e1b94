// Delivers webhook events (docs/api.md, Webhooks) with the outbox machinery mail uses (lib/outbox):
// due deliveries are claimed with a lease, each attempt is a signed POST through lib/net (public
// addresses only, no redirects, 10 s deadline, at most 64 KiB read), recorded as soon as it ends, and
// retried with exponential backoff while its event is younger than the retry window (24 h). A crash
// re-sends only the attempts in flight (at least once; receivers deduplicate by webhook-id).
//
// One receiver cannot hold up the others (scheduling.ts): an endpoint has a few attempts in flight at
// most, an organization a share of the slots, and endpoints whose attempts recently ran into the 10 s
// deadline (the whole attempt's, however slowly the answer drips) are delivered in a slow lane of
// their own, so a hanging receiver slows its own deliveries and, at worst, other slow ones. An endpoint
// whose attempt in flight has already run 2 s is treated as slow at once, without waiting for the deadline.
//
// An endpoint is disabled, with the reason shown, once it has failed continuously (no successful
// attempt) for the retry window: 24 hours of failures, at least a dozen attempts.
import { config } from "../config";
import { db, type SqlClient } from "../db";
import { directQuery } from "../db/direct-read";
import { directTransaction } from "../db/direct-transaction";
import { newId } from "../db/ids";
import { rawDate, rawNullableDate } from "../db/raw-values";
import { Prisma } from "../generated/sqlite/client";
import { errorSummary, log } from "../log";
import { OutboundRequestError, outboundRequest } from "../net/outbound-request";
import { exponentialBackoffMs } from "../outbox/backoff";
import { claimLeasedRows, dueAndUnleased, idList } from "../outbox/claim";
import { deliveryPool, type DeliveryPool } from "../outbox/pool";
import { disableEndpoint } from "./endpoint-state";
import { claimShares, laneOf, MOST_PER_ENDPOINT, ProvenFast, totalSlots, type Lane } from "./scheduling";
import { openSigningSecret, signatureHeaders, WebhookSecretError } from "./secrets";

/** While deliveries are in flight, claims come at most this often: each takes a batch. */
const CLAIM_INTERVAL_MS = 100;
/** Outcomes are written together after this pause: a stream of deliveries costs a write per batch. */
const RECORD_BATCH_MS = 25;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** What the lease allows beyond the attempt's deadline for writing its outcome. */
const RECORD_MARGIN_MS = 20_000;
const BACKOFF_CAP_MS = 4 * 3600_000;
const EXCERPT_CHARS = 1000;

type DeliveryRow = {
  id: string;
  /** The claim's: an outcome is written only while the row is still this claim's (see outcomeWrites). */
  leaseOwner: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  createdAt: Date;
  /** The lane it was claimed in: it holds a slot of that lane until its attempt ends. */
  lane: Lane;
  /** When it was claimed (Date.now()): its attempt starts at once, the pool claims only for free slots. */
  claimedAt: number;
  event: { type: string; payload: string };
  endpoint: {
    url: string;
    organizationId: string;
    encryptedSecret: string;
    encryptedPreviousSecret: string | null;
    previousSecretExpiresAt: Date | null;
    /** As claimed: whether the endpoint was in a failing streak (a success must end it). */
    failing: boolean;
    /** As claimed: whether an attempt recently ran into the deadline (a success must clear it). */
    timedOut: boolean;
  };
};

/**
 * Due deliveries for up to `limit` free slots, shared by the rules of scheduling.ts among the rows in
 * flight in this process. First the enabled endpoints with something due, with how many (an index
 * range of at most MOST_PER_ENDPOINT rows each), in a rotating order so that none is always served
 * last; then one claim statement taking each one's oldest due rows, up to its share. Neither statement
 * scans a backlog.
 */
let rotation = 0;
async function claimDue(now: Date, limit: number, inFlight: readonly DeliveryRow[], proven: ProvenFast): Promise<DeliveryRow[]> {
  // Each one's due rows are counted (up to the most it may have in flight): a share larger than what it
  // has due would hold slots back from the endpoints after it (a proven one would take 64 for 1 row).
  // Past the Prisma client, as are the claim and the outcomes: the worker's statements run several times
  // a second beside issuing at full speed, and through the client each is compiled (and on SQLite
  // prepared) anew (bench:webhooks' profile: the larger part of what delivery added to issuing's CPU).
  const due = await directQuery<{ id: string; organizationId: string; timedOutAt: unknown; dueRows: unknown }>(Prisma.sql`
    SELECT e."id", e."organizationId", e."timedOutAt",
      (SELECT COUNT(*) FROM (SELECT 1 FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND ${dueAndUnleased(now, "d")}
        LIMIT ${MOST_PER_ENDPOINT}) "upTo") AS "dueRows"
    FROM "WebhookEndpoint" e
    WHERE e."enabled" = TRUE
      AND EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND ${dueAndUnleased(now, "d")})
    ORDER BY e."id"`);
  if (due.length === 0) return [];
  const endpoints = due.map((e) => ({
    id: e.id,
    organizationId: e.organizationId,
    lane: laneOf(rawNullableDate(e.timedOutAt), now),
    proven: proven.has(e.id),
    dueRows: Number(e.dueRows),
  }));
  // The wall clock, not `now` (tests and scripts pass another time to make rows due).
  const clock = Date.now();
  const busy = inFlight.map((row) => ({
    endpointId: row.endpointId,
    organizationId: row.endpoint.organizationId,
    lane: row.lane,
    runningMs: clock - row.claimedAt,
  }));
  const shares = claimShares(endpoints, busy, limit, rotation++ % endpoints.length);
  if (shares.length === 0) return [];
  const candidates = shares.map(
    (share, i) => Prisma.sql`SELECT "id" FROM (
      SELECT "id" FROM "WebhookDelivery" WHERE "endpointId" = ${share.endpointId} AND ${dueAndUnleased(now)}
      ORDER BY "nextAttemptAt" LIMIT ${share.rows}) ${Prisma.raw(`"share${i}"`)}`,
  );
  // The claim and the read of what it took, in one transaction.
  const rows = await directTransaction(async (tx) => {
    const { owner, claimed } = await claimLeasedRows(
      "WebhookDelivery",
      Prisma.join(candidates, " UNION ALL "),
      now,
      ATTEMPT_TIMEOUT_MS + RECORD_MARGIN_MS,
      tx,
    );
    return claimed === 0 ? [] : claimedRows(tx, owner);
  });
  const laneOfEndpoint = new Map(shares.map((share) => [share.endpointId, share.lane]));
  const claimedAt = Date.now();
  return rows.map((row) => ({ ...row, lane: laneOfEndpoint.get(row.endpointId) ?? "normal", claimedAt }));
}

type ClaimedRow = {
  id: string;
  endpointId: string;
  eventId: string;
  attempts: unknown;
  createdAt: unknown;
  type: string;
  payload: string;
  url: string;
  organizationId: string;
  encryptedSecret: string;
  encryptedPreviousSecret: string | null;
  previousSecretExpiresAt: unknown;
  failingSince: unknown;
  timedOutAt: unknown;
};

/** The rows a claim took, with their event and endpoint, in one statement (their lane and claim time are the caller's to set). */
async function claimedRows(tx: SqlClient, owner: string): Promise<Omit<DeliveryRow, "lane" | "claimedAt">[]> {
  const rows = await tx.$queryRaw<ClaimedRow[]>`
    SELECT d."id", d."endpointId", d."eventId", d."attempts", d."createdAt", ev."type", ev."payload",
           e."url", e."organizationId", e."encryptedSecret", e."encryptedPreviousSecret", e."previousSecretExpiresAt", e."failingSince", e."timedOutAt"
    FROM "WebhookDelivery" d
    JOIN "WebhookEvent" ev ON ev."id" = d."eventId"
    JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
    WHERE d."leaseOwner" = ${owner} AND d."status" = 'queued'`;
  return rows.map((r) => ({
    id: r.id,
    leaseOwner: owner,
    endpointId: r.endpointId,
    eventId: r.eventId,
    attempts: Number(r.attempts),
    createdAt: rawDate(r.createdAt),
    event: { type: r.type, payload: r.payload },
    endpoint: {
      url: r.url,
      organizationId: r.organizationId,
      encryptedSecret: r.encryptedSecret,
      encryptedPreviousSecret: r.encryptedPreviousSecret,
      previousSecretExpiresAt: rawNullableDate(r.previousSecretExpiresAt),
      failing: r.failingSince !== null && r.failingSince !== undefined,
      timedOut: r.timedOutAt !== null && r.timedOutAt !== undefined,
    },
  }));
}

type Outcome = {
  row: DeliveryRow;
  startedAt: Date;
  durationMs: number;
  succeeded: boolean;
  /** It ran into the deadline: its endpoint goes to the slow lane. */
  timedOut: boolean;
  responseStatus: number | null;
  error: string | null;
  excerpt: string | null;
};

/**
 * Opened secrets of this process, by endpoint and sealed text: opening one derives its key (HKDF) and
 * decrypts it, which every attempt of a busy endpoint would otherwise repeat. A rotation seals a new
 * text, so a stale entry is never used; the map is emptied when it grows past a bound.
 */
const openedSecrets = new Map<string, string>();
const MOST_OPENED_SECRETS = 1000;

function openedSecret(sealed: string, endpoint: { id: string; organizationId: string }): string {
  const key = `${endpoint.id}\u0000${endpoint.organizationId}\u0000${sealed}`;
  let secret = openedSecrets.get(key);
  if (secret === undefined) {
    secret = openSigningSecret(sealed, endpoint);
    if (openedSecrets.size >= MOST_OPENED_SECRETS) openedSecrets.clear();
    openedSecrets.set(key, secret);
  }
  return secret;
}

/** The secrets that sign now: the current one, and the previous one during its 24 hours after a rotation. */
function activeSecrets(row: DeliveryRow, now: Date): string[] {
  const endpoint = { id: row.endpointId, organizationId: row.endpoint.organizationId };
  const secrets = [openedSecret(row.endpoint.encryptedSecret, endpoint)];
  const previous = row.endpoint.encryptedPreviousSecret;
  if (previous && row.endpoint.previousSecretExpiresAt && row.endpoint.previousSecretExpiresAt > now)
    secrets.push(openedSecret(previous, endpoint));
  return secrets;
}

/** The start of an answer's body as text we can store on both engines (PostgreSQL text holds no NUL). */
function excerptOf(body: Buffer): string | null {
  if (body.length === 0) return null;
  return body
    .subarray(0, EXCERPT_CHARS * 4)
    .toString("utf8")
    .slice(0, EXCERPT_CHARS)
    .replace(/\u0000/g, "\uFFFD");
}

/** One signed POST. Never throws: every way it can go wrong is an outcome to record. */
export async function attemptDelivery(row: DeliveryRow): Promise<Outcome> {
  const startedAt = new Date();
  const base = { row, startedAt, timedOut: false, responseStatus: null, excerpt: null };
  try {
    const headers = {
      "content-type": "application/json",
      ...signatureHeaders(row.eventId, row.event.payload, activeSecrets(row, startedAt), startedAt),
    };
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
    if (error instanceof OutboundRequestError)
      return { ...base, durationMs, succeeded: false, timedOut: error.kind === "timeout", error: error.message };
    if (error instanceof WebhookSecretError) return { ...base, durationMs, succeeded: false, error: error.message };
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

/** Attempts written per INSERT: a few statement texts, whatever the batch's size. */
const ATTEMPTS_PER_INSERT = 16;

/**
 * Writes a batch of outcomes in the caller's transaction: each delivery's new state, every attempt, and
 * the end of the failing streak of each endpoint that answered. Plain SQL in one transaction past the
 * Prisma client: no statement waits on our code in between, which matters on SQLite, whose one writer
 * the issuing requests share.
 */
async function writeOutcomes(tx: SqlClient, outcomes: Outcome[], now: Date): Promise<void> {
  const cfg = config();
  const succeeded = outcomes.filter((o) => o.succeeded);
  const failed = outcomes.filter((o) => !o.succeeded);
  // Only endpoints that were failing when claimed: on the usual path this costs no statement.
  const healthy = [...new Set(succeeded.filter((o) => o.row.endpoint.failing).map((o) => o.row.endpointId))];
  // An endpoint that ran into the deadline goes to the slow lane (or stays there, from now); one that
  // answered in time leaves it, unless another of its attempts in the batch ran into the deadline.
  const timedOut = [...new Set(outcomes.filter((o) => o.timedOut).map((o) => o.row.endpointId))];
  const answeredInTime = [
    ...new Set(succeeded.filter((o) => o.row.endpoint.timedOut && !timedOut.includes(o.row.endpointId)).map((o) => o.row.endpointId)),
  ];
  // A retry asked for while an attempt was under way takes the row from its claim (service.ts): that
  // attempt is logged, but its outcome must not mark the row delivered and lose the retry. So each
  // row's outcome is written only while its lease is still this claim's.
  for (const owner of new Set(succeeded.map((o) => o.row.leaseOwner))) {
    const ids = succeeded.filter((o) => o.row.leaseOwner === owner).map((o) => o.row.id);
    await tx.$executeRaw`
      UPDATE "WebhookDelivery" SET "status" = 'delivered', "deliveredAt" = ${now}, "leaseUntil" = NULL, "leaseOwner" = NULL
      WHERE "leaseOwner" = ${owner} AND "id" IN (${idList(ids)})`;
  }
  for (const o of failed) {
    const finishedAt = o.startedAt.getTime() + o.durationMs;
    const givesUp = finishedAt - o.row.createdAt.getTime() >= windowMs();
    const next = new Date(finishedAt + exponentialBackoffMs(o.row.attempts, cfg.webhookRetryBaseSeconds * 1000, BACKOFF_CAP_MS));
    await tx.$executeRaw`
      UPDATE "WebhookDelivery" SET "status" = ${givesUp ? "failed" : "queued"}, "leaseUntil" = NULL, "leaseOwner" = NULL, "nextAttemptAt" = ${next}
      WHERE "id" = ${o.row.id} AND "leaseOwner" = ${o.row.leaseOwner}`;
  }
  for (let i = 0; i < outcomes.length; i += ATTEMPTS_PER_INSERT) {
    const rows = outcomes.slice(i, i + ATTEMPTS_PER_INSERT).map(
      (o) => Prisma.sql`(${newId("wha")}, ${o.row.id}, ${o.row.endpointId}, ${o.row.eventId}, ${o.row.event.type}, ${o.row.attempts},
        ${o.succeeded ? "succeeded" : "failed"}, ${o.responseStatus}, ${o.error}, ${o.durationMs}, ${o.excerpt}, ${o.startedAt})`,
    );
    await tx.$executeRaw`
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "endpointId", "eventId", "eventType", "attempt", "outcome", "responseStatus", "error", "durationMs", "responseExcerpt", "createdAt")
      VALUES ${Prisma.join(rows)}`;
  }
  // A change of the endpoint's state (its updatedAt moves, as any change of it does).
  if (healthy.length > 0)
    await tx.$executeRaw`
      UPDATE "WebhookEndpoint" SET "failingSince" = NULL, "updatedAt" = ${now} WHERE "id" IN (${idList(healthy)}) AND "failingSince" IS NOT NULL`;
  // The lane is the worker's bookkeeping, not a change of the endpoint (its updatedAt stays).
  if (timedOut.length > 0) await tx.$executeRaw`UPDATE "WebhookEndpoint" SET "timedOutAt" = ${now} WHERE "id" IN (${idList(timedOut)})`;
  if (answeredInTime.length > 0)
    await tx.$executeRaw`UPDATE "WebhookEndpoint" SET "timedOutAt" = NULL WHERE "id" IN (${idList(answeredInTime)}) AND "timedOutAt" IS NOT NULL`;
}

/**
 * An endpoint that failed without a success in the same batch starts (or continues) its failing
 * streak; past the retry window it is disabled with the reason, and its queued deliveries wait.
 */
async function noteFailingEndpoints(outcomes: Outcome[], now: Date): Promise<void> {
  const healthy = new Set(outcomes.filter((o) => o.succeeded).map((o) => o.row.endpointId));
  const failing = new Map<string, { first: Date; last: Outcome }>();
  for (const o of outcomes) {
    if (o.succeeded || healthy.has(o.row.endpointId)) continue;
    const seen = failing.get(o.row.endpointId);
    failing.set(o.row.endpointId, { first: seen && seen.first < o.startedAt ? seen.first : o.startedAt, last: o });
  }
  for (const [endpointId, { first, last }] of failing) {
    await db().webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: first } });
    const endpoint = await db().webhookEndpoint.findUnique({ where: { id: endpointId }, select: { enabled: true, failingSince: true } });
    if (!endpoint?.enabled || !endpoint.failingSince || now.getTime() - endpoint.failingSince.getTime() < windowMs()) continue;
    const disabled = await disableEndpoint(endpointId, disabledReason(endpoint.failingSince, failureText(last)));
    if (disabled) log.warn("webhook_endpoint_disabled", { endpointId, failingSince: endpoint.failingSince.toISOString() });
  }
}

/** Writes a batch of outcomes. Deliveries whose endpoint was deleted meanwhile are left out. */
async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  const now = new Date();
  try {
    await directTransaction((tx) => writeOutcomes(tx, outcomes, now));
  } catch (error) {
    // An attempt of a delivery deleted with its endpoint breaks the log's foreign key: write the rest.
    const present = new Set(
      (await db().webhookDelivery.findMany({ where: { id: { in: outcomes.map((o) => o.row.id) } }, select: { id: true } })).map(
        (d) => d.id,
      ),
    );
    const kept = outcomes.filter((o) => present.has(o.row.id));
    if (kept.length === outcomes.length) throw error;
    if (kept.length > 0) await directTransaction((tx) => writeOutcomes(tx, kept, now));
  }
  if (outcomes.some((o) => !o.succeeded)) await noteFailingEndpoints(outcomes, now);
  for (const o of outcomes) {
    const fields = {
      deliveryId: o.row.id,
      eventId: o.row.eventId,
      attempt: o.row.attempts,
      durationMs: o.durationMs,
      status: o.responseStatus,
    };
    if (o.succeeded) log.debug("webhook_delivered", fields);
    else log.warn("webhook_attempt_failed", { ...fields, error: failureText(o) });
  }
}

export type WebhookDelivery = DeliveryPool;

/** The pool of webhook deliveries (lib/outbox/pool.ts); `onSlotFree` runs after each outcome is recorded. */
export function webhookDelivery(onSlotFree: () => void = () => {}): WebhookDelivery {
  const proven = new ProvenFast();
  return deliveryPool<DeliveryRow, Outcome>({
    name: "webhook_worker_error",
    parallel: totalSlots(),
    claimIntervalMs: CLAIM_INTERVAL_MS,
    recordBatchMs: RECORD_BATCH_MS,
    freeSlotWhenAttempted: true,
    claim: (now, limit, inFlight) => claimDue(now, limit, inFlight, proven),
    deliver: async (row) => {
      const outcome = await attemptDelivery(row);
      proven.note(row.endpointId, outcome.succeeded, outcome.durationMs);
      return outcome;
    },
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
