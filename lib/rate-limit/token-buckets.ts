// Token buckets: `burst` requests at once, refilled at `perSecond`. TokenBucketLimiter keeps them in
// this process's memory; where a limit must hold across processes (PostgreSQL), lib/rate-limit/shared-rate-limit.ts
// keeps them in the database and decides which kind each limit gets.
export type RateLimitState = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

type Bucket = { tokens: number; updatedAt: number };

export class TokenBucketLimiter {
  readonly #buckets = new Map<string, Bucket>();
  constructor(
    readonly perSecond: number,
    readonly burst: number,
  ) {}

  take(key: string, now = Date.now()): RateLimitState {
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 50_000) this.#evictFull(now);
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)),
    };
  }

  /** Whether `key` has a token now, without taking it. */
  hasToken(key: string, now = Date.now()): boolean {
    const bucket = this.#buckets.get(key);
    return !bucket || bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond >= 1;
  }

  /** Drops the buckets whose keys match: they start full again. */
  forget(matches: (key: string) => boolean): void {
    for (const key of this.#buckets.keys()) if (matches(key)) this.#buckets.delete(key);
  }

  /** Buckets that have refilled completely carry no information; drop them. */
  #evictFull(now: number) {
    for (const [key, b] of this.#buckets) {
      if (b.tokens + ((now - b.updatedAt) / 1000) * this.perSecond >= this.burst) this.#buckets.delete(key);
    }
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

/**
 * Named token buckets under one rule, wherever they are kept (this process's memory, or the database
 * so that several processes share them). `now` lets tests of the in-memory kind move the clock; a
 * database bucket goes by the database's clock.
 */
export interface Buckets {
  take(key: string, now?: number): Promise<RateLimitState>;
  /** Whether `key` has a token now, without taking it. */
  hasToken(key: string, now?: number): Promise<boolean>;
  /** The bucket of `key` starts full again. */
  forget(key: string): Promise<void>;
  /** Every bucket whose key starts with `prefix` starts full again. */
  forgetPrefix(prefix: string): Promise<void>;
}

/** Buckets in this process's memory: for one process (SQLite), and for tests. */
export class MemoryBuckets implements Buckets {
  readonly #limiter: TokenBucketLimiter;
  constructor(perSecond: number, burst: number) {
    this.#limiter = new TokenBucketLimiter(perSecond, burst);
  }
  async take(key: string, now = Date.now()) {
    return this.#limiter.take(key, now);
  }
  async hasToken(key: string, now = Date.now()) {
    return this.#limiter.hasToken(key, now);
  }
  async forget(key: string) {
    this.#limiter.forget((k) => k === key);
  }
  async forgetPrefix(prefix: string) {
    this.#limiter.forget((k) => k.startsWith(prefix));
  }
}
