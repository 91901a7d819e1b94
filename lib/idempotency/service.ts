// Claiming an Idempotency-Key, keeping the answer of its request, and forgetting it again (docs/api.md,
// Idempotent retries). The unique (organizationId, key) index does the locking: of two requests that INSERT a
// claim for one key only one succeeds; the other reads the row the winner wrote and is answered from it.
import { ApiError } from "../core/errors";
import { IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_LEASE_MS } from "../core/idempotency";
import { appSecret } from "../app-secret";
import { db } from "../db";
import { newId } from "../db/ids";
import { openSecret, sealSecret, type SealContext } from "../issuers/key-encryption";

export type KeptAnswer = { status: number; headers: Record<string, string>; body: string | null };

export type ClaimRequest = { organizationId: string; key: string; method: string; path: string; fingerprint: string };

/** Either this request now holds the key (`claimId`), or an earlier one answered it (`replay`). */
export type Claim = { claimId: string } | { replay: KeptAnswer };

// An INSERT that loses a race retries after the winner's row is gone (expired and deleted, or
// released): a few rounds are plenty; more would mean rows vanishing faster than we can read them.
const CLAIM_ATTEMPTS = 5;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "P2002";
}

/**
 * Claims the key for this request, or says how an earlier request with it answers this one:
 * its kept answer (same fingerprint, done), 409 `conflict` (still running), or 422
 * `idempotency_key_reused` (another method, path or body). A row past its `expiresAt` — an answer
 * older than 24 h, or a claim whose request died — is deleted and the key claimed as new.
 */
export async function claimIdempotencyKey(request: ClaimRequest, now = new Date()): Promise<Claim> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const claimId = newId("idem");
    try {
      await db().idempotencyRecord.create({
        data: { id: claimId, ...request, state: "running", expiresAt: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS) },
      });
      return { claimId };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const held = await db().idempotencyRecord.findUnique({
      where: { organizationId_key: { organizationId: request.organizationId, key: request.key } },
    });
    if (!held) continue; // released or cleaned up since our INSERT: try again
    if (held.expiresAt <= now) {
      // Deleting by id: of several requests that saw the same expired row, each deletes at most that
      // row, and the INSERT after it lets only one of them claim the key.
      await db().idempotencyRecord.deleteMany({ where: { id: held.id, expiresAt: { lte: now } } });
      continue;
    }
    if (held.fingerprint !== request.fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        `This Idempotency-Key was used with another request (${held.method} ${held.path}, or another body); use a new key for a new request.`,
      );
    }
    if (held.state !== "done" || held.status === null) {
      throw new ApiError("conflict", "A request with this Idempotency-Key is still running; retry once it has answered.");
    }
    return {
      replay: {
        status: held.status,
        headers: JSON.parse(held.headers ?? "{}") as Record<string, string>,
        body: keptBody(held.id, held.body),
      },
    };
  }
  throw new Error("idempotency key claim did not settle");
}

// An answer that carries a secret shown once (a webhook signing secret) is kept sealed, as the secret
// itself is at rest, so that the replay table holds no secret in clear.
const SEALED = "sealed:";
const sealContext = (claimId: string): SealContext => ({ purpose: "cis idempotent-answer v1", binding: [claimId] });

function keptBody(claimId: string, stored: string | null): string | null {
  if (stored === null || !stored.startsWith(SEALED)) return stored;
  return openSecret(
    stored.slice(SEALED.length),
    sealContext(claimId),
    appSecret(),
    () => new Error("A kept idempotent answer could not be decrypted."),
  );
}

/**
 * Keeps the answer of the claim's request for 24 hours (`sealBody`: encrypted, for an answer holding a
 * secret). A claim taken over meanwhile is left alone.
 */
export async function keepIdempotentAnswer(
  claimId: string,
  answer: KeptAnswer,
  now = new Date(),
  options: { sealBody?: boolean } = {},
): Promise<void> {
  await db().idempotencyRecord.updateMany({
    where: { id: claimId, state: "running" },
    data: {
      state: "done",
      status: answer.status,
      headers: JSON.stringify(answer.headers),
      body: options.sealBody && answer.body !== null ? SEALED + sealSecret(answer.body, sealContext(claimId), appSecret()) : answer.body,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEEP_MS),
    },
  });
}

/** Frees the key of a request that failed on our side (5xx), so that a retry runs it again. */
export async function releaseIdempotencyKey(claimId: string): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { id: claimId, state: "running" } });
}

/** Deletes up to `limit` rows past their `expiresAt`; returns how many. The background loop calls it. */
export async function deleteExpiredIdempotencyRecords(limit = 500, now = new Date()): Promise<number> {
  const expired = await db().idempotencyRecord.findMany({
    where: { expiresAt: { lte: now } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: limit,
  });
  if (!expired.length) return 0;
  const { count } = await db().idempotencyRecord.deleteMany({ where: { id: { in: expired.map((r) => r.id) }, expiresAt: { lte: now } } });
  return count;
}
