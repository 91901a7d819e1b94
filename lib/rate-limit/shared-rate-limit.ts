// Rate limits that hold across processes (docs/operating.md, Several processes: several processes may serve one PostgreSQL
// database). This module is the one place that decides where each limit is kept (`limitKeptFor`
// below): in Redis when REDIS_URL is set (lib/rate-limit/redis-rate-limit.ts), else in the database on
// PostgreSQL ("RateLimitBucket", one row per key), else in memory on SQLite (one process serves a
// SQLite database).
//
// Two ways to use a database bucket:
//   - SharedTokenLimiter, for busy keys (the per-token API limit, the public per-address limits): a
//     process leases a few tokens at a time with one atomic statement and spends them locally, so a
//     busy key costs one round trip per lease, not one per request. Accuracy: a lease left unspent
//     expires with LEASE_TTL_MS and its tokens are lost to everyone, so with N processes the limit can
//     be undercounted by at most N × lease size tokens (5 of a burst of 200 per process by default),
//     never exceeded. Denials are remembered until the bucket will have a token again, so a client
//     hammering past its limit does not become a database load.
//   - DatabaseBuckets, for rare attempts that must be counted exactly and can be forgotten or looked at
//     without taking (sign-in, password reset): one statement per attempt.
//
// Rows of a limit that have been idle for longer than its bucket takes to refill completely are full
// again, and are deleted now and then (a deleted bucket starts full: nothing changes).
import { createHmac } from "node:crypto";
import { appSecret } from "../app-secret";
import { db } from "../db";
import { errorSummary, log } from "../log";
import { config } from "../config";
import type { Buckets, RateLimitState } from "./token-buckets";
import { MemoryBuckets, TokenBucketLimiter } from "./token-buckets";
import { processSingleton } from "../core/process-singleton";
import { addressBlock } from "./address-block";
import { RedisBuckets, redisClient } from "./redis-rate-limit";

const LEASE_TTL_MS = 2_000;

type Local = {
  /** Leased tokens not spent yet. */
  tokens: number;
  expiresAt: number;
  /** The shared bucket's tokens after the last lease (for the RateLimit-Remaining header). */
  sharedRemaining: number;
  /** When the shared bucket was empty: no lease is asked for before this time. */
  deniedUntil: number;
};

type Lease = { granted: number; remaining: number };

export class SharedTokenLimiter {
  readonly #local = new Map<string, Local>();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #waiting = new Map<string, number>();
  // If the database cannot be reached, requests are still limited, per process: better than refusing
  // every request or letting every one through.
  readonly #fallback: TokenBucketLimiter;
  readonly #leaseSize: number;

  readonly #pruner: Pruner | null;

  /** `namespace` prefixes the keys in the shared table ("" for the API tokens' buckets, which predate namespaces). */
  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly namespace = "",
  ) {
    this.#fallback = new TokenBucketLimiter(perSecond, burst);
    this.#leaseSize = Math.max(1, Math.floor(burst / 40));
    this.#pruner = namespace ? new Pruner(namespace, burst / perSecond) : null;
  }

  async take(key: string): Promise<RateLimitState> {
    this.#pruner?.maybePrune();
    return this.#take(this.namespace + key);
  }

  async #take(key: string): Promise<RateLimitState> {
    for (let round = 0; round < 4; round++) {
      const now = Date.now();
      const local = this.#local.get(key);
      if (local && local.expiresAt > now && local.tokens >= 1) {
        local.tokens -= 1;
        return this.#state(true, local.sharedRemaining + local.tokens, 0);
      }
      if (local && local.deniedUntil > now) return this.#state(false, 0, local.deniedUntil - now);
      this.#waiting.set(key, (this.#waiting.get(key) ?? 0) + 1);
      try {
        await this.#leaseOnce(key);
      } catch (error) {
        log.warn("rate_limit_store_unavailable", errorSummary(error));
        return this.#fallback.take(key);
      } finally {
        this.#waiting.set(key, (this.#waiting.get(key) ?? 1) - 1);
        if (this.#waiting.get(key) === 0) this.#waiting.delete(key);
      }
    }
    // Concurrent requests kept taking the tokens this one waited for: the bucket is as good as empty.
    return this.#state(false, 0, 1000 / this.perSecond);
  }

  /** One lease per key at a time: requests arriving meanwhile wait for it and then share it. */
  #leaseOnce(key: string): Promise<void> {
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    const want = Math.min(this.burst, Math.max(this.#leaseSize, this.#waiting.get(key) ?? 1));
    const promise = leaseTokens(key, want, this.perSecond, this.burst)
      .then(({ granted, remaining }) => {
        const now = Date.now();
        const wait = granted === 0 ? Math.ceil(((1 - remaining) / this.perSecond) * 1000) : 0;
        this.#local.set(key, { tokens: granted, expiresAt: now + LEASE_TTL_MS, sharedRemaining: remaining, deniedUntil: now + wait });
        if (this.#local.size > 50_000) this.#dropExpired(now);
      })
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, promise);
    return promise;
  }

  #state(allowed: boolean, remaining: number, retryAfterMs: number): RateLimitState {
    const left = Math.max(0, Math.floor(remaining));
    return {
      allowed,
      limit: this.burst,
      remaining: left,
      resetSeconds: Math.ceil((this.burst - left) / this.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)),
    };
  }

  #dropExpired(now: number) {
    for (const [key, local] of this.#local) if (local.expiresAt <= now && local.deniedUntil <= now) this.#local.delete(key);
  }
}

/** The bucket refilled by the database's clock since its last use (processes' clocks may disagree). */
const REFILLED = `LEAST($3::double precision, "tokens" + GREATEST(0, EXTRACT(EPOCH FROM (statement_timestamp() - "updatedAt"))) * $4::double precision)`;

/**
 * Takes up to `want` whole tokens from the shared bucket of `key`, refilled at `perSecond` up to
 * `burst`. The row is locked (FOR UPDATE, which under READ COMMITTED reads the latest committed
 * version after waiting) and updated in one statement, so concurrent leases from several processes
 * queue on the row and never hand out the same token twice.
 */
async function leaseTokens(key: string, want: number, perSecond: number, burst: number): Promise<Lease> {
  const take = () =>
    db().$queryRawUnsafe<{ granted: number; remaining: number }[]>(
      `UPDATE "RateLimitBucket" AS b SET "tokens" = r.available - r.granted, "updatedAt" = statement_timestamp()
       FROM (SELECT "key", ${REFILLED} AS available, LEAST($2::double precision, FLOOR(${REFILLED})) AS granted
             FROM "RateLimitBucket" WHERE "key" = $1 FOR UPDATE) AS r
       WHERE b."key" = r."key"
       RETURNING r.granted AS granted, b."tokens" AS remaining`,
      key,
      want,
      burst,
      perSecond,
    );
  let rows = await take();
  if (rows.length === 0) {
    // First request of this token anywhere: its bucket starts full.
    await db().$executeRawUnsafe(
      `INSERT INTO "RateLimitBucket" ("key", "tokens", "updatedAt") VALUES ($1, $2::double precision, statement_timestamp()) ON CONFLICT ("key") DO NOTHING`,
      key,
      burst,
    );
    rows = await take();
  }
  const row = rows[0];
  if (!row) throw new Error("rate limit bucket vanished");
  return { granted: Number(row.granted), remaining: Number(row.remaining) };
}

/**
 * Exact buckets in the database: each take is one locked update of the key's row, so any number of
 * processes count one attempt once. For rare events (sign-in attempts, reset requests), where one
 * round trip per attempt costs nothing next to the attempt itself.
 */
export class DatabaseBuckets implements Buckets {
  readonly #pruner: Pruner;
  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly namespace: string,
  ) {
    this.#pruner = new Pruner(namespace, burst / perSecond);
  }

  async take(key: string): Promise<RateLimitState> {
    this.#pruner.maybePrune();
    const { granted, remaining } = await leaseTokens(this.namespace + key, 1, this.perSecond, this.burst);
    const allowed = granted >= 1;
    const left = Math.max(0, Math.floor(remaining));
    return {
      allowed,
      limit: this.burst,
      remaining: left,
      resetSeconds: Math.ceil((this.burst - remaining) / this.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - remaining) / this.perSecond)),
    };
  }

  async hasToken(key: string): Promise<boolean> {
    const rows = await db().$queryRawUnsafe<{ has: boolean }[]>(
      `SELECT (LEAST($2::double precision, "tokens" + GREATEST(0, EXTRACT(EPOCH FROM (statement_timestamp() - "updatedAt"))) * $3::double precision) >= 1) AS has
       FROM "RateLimitBucket" WHERE "key" = $1`,
      this.namespace + key,
      this.burst,
      this.perSecond,
    );
    return rows.length === 0 || Boolean(rows[0]!.has);
  }

  async forget(key: string): Promise<void> {
    await db().$executeRawUnsafe(`DELETE FROM "RateLimitBucket" WHERE "key" = $1`, this.namespace + key);
  }

  async forgetPrefix(prefix: string): Promise<void> {
    await db().$executeRawUnsafe(`DELETE FROM "RateLimitBucket" WHERE starts_with("key", $1)`, this.namespace + prefix);
  }
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** Deletes, at most every ten minutes per process, the rows of one namespace that are full again. */
class Pruner {
  #nextAt = Date.now() + PRUNE_EVERY_MS;
  constructor(
    readonly namespace: string,
    /** How long an empty bucket takes to be full again. */
    readonly refillSeconds: number,
  ) {}

  maybePrune(): void {
    const now = Date.now();
    if (now < this.#nextAt) return;
    this.#nextAt = now + PRUNE_EVERY_MS;
    // A row updated concurrently is locked by its lease; the DELETE then re-checks "updatedAt" and keeps it.
    db()
      .$executeRawUnsafe(
        `DELETE FROM "RateLimitBucket" WHERE starts_with("key", $1) AND "updatedAt" < statement_timestamp() - make_interval(secs => $2::double precision)`,
        this.namespace,
        Math.ceil(this.refillSeconds) + 1,
      )
      .catch((error: unknown) => log.warn("rate_limit_prune_failed", errorSummary(error)));
  }
}

/** A limit: `burst` at once, then `perSecond`; `name` keeps its keys apart from other limits'. */
export type LimitRule = { name: string; perSecond: number; burst: number };

/**
 * What a limit is keyed by when the key is about a person (an email, a client address): a keyed hash,
 * so the limit table holds no addresses or emails, and without the app secret its keys cannot be
 * matched against a list of them. The same value gives the same key in every process sharing the secret.
 */
export function rateLimitSubject(value: string): string {
  return createHmac("sha256", appSecret()).update(value).digest("base64url").slice(0, 22);
}

/** The key of a client address in per-address limits: its block (an IPv6 address's /64), hashed. */
export function addressSubject(address: string): string {
  return rateLimitSubject(`address:${addressBlock(address)}`);
}

function limitKeptFor(): "redis" | "database" | "memory" {
  const { redisUrl, databaseProvider } = config();
  if (redisUrl) return "redis";
  return databaseProvider === "postgresql" ? "database" : "memory";
}

function redisBuckets(rule: { perSecond: number; burst: number }, namespace: string): RedisBuckets {
  return new RedisBuckets(redisClient(config().redisUrl!), rule.perSecond, rule.burst, namespace);
}

type Limiter = { take(key: string): RateLimitState | Promise<RateLimitState> };

/** The per-token API limit (docs/api.md, Every /v1 request), one per process. */
export function apiTokenLimiter(): Limiter {
  return processSingleton("api.tokenLimiter", (): Limiter => {
    const { rateLimitPerSecond: perSecond, rateLimitBurst: burst } = config();
    switch (limitKeptFor()) {
      case "redis":
        return redisBuckets({ perSecond, burst }, "api:");
      case "database":
        return new SharedTokenLimiter(perSecond, burst);
      case "memory":
        // The synchronous limiter: the API's hot path need not wait for a promise.
        return new TokenBucketLimiter(perSecond, burst);
    }
  });
}

/** A busy limit per key (the public routes' per-address limits): leased from the database on PostgreSQL. */
export function sharedLimiter(rule: LimitRule): Limiter {
  return processSingleton(`limits.${rule.name}`, (): Limiter => {
    switch (limitKeptFor()) {
      case "redis":
        return redisBuckets(rule, `${rule.name}:`);
      case "database":
        return new SharedTokenLimiter(rule.perSecond, rule.burst, `${rule.name}:`);
      case "memory":
        return new MemoryBuckets(rule.perSecond, rule.burst);
    }
  });
}

/** An exact limit per key for rare attempts (sign-in, password reset), which may be looked at and forgotten. */
export function exactBuckets(rule: LimitRule): Buckets {
  return processSingleton(`limits.${rule.name}`, (): Buckets => {
    switch (limitKeptFor()) {
      case "redis":
        return redisBuckets(rule, `${rule.name}:`);
      case "database":
        return new DatabaseBuckets(rule.perSecond, rule.burst, `${rule.name}:`);
      case "memory":
        return new MemoryBuckets(rule.perSecond, rule.burst);
    }
  });
}
