// Per-token token buckets: RATE_LIMIT_BURST requests at once, refilled at RATE_LIMIT_PER_SECOND.
// In memory, per process: one process serves the app (see README for running several).
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
