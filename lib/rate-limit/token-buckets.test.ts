import { describe, expect, it } from "vitest";
import { TokenBucketLimiter } from "./token-buckets";

describe("TokenBucketLimiter", () => {
  it("allows a burst, then refuses with a retry time, then refills", () => {
    const limiter = new TokenBucketLimiter(2, 3);
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => limiter.take("tok", t0).allowed)).toEqual([true, true, true]);
    const refused = limiter.take("tok", t0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3, retryAfterSeconds: 1 });
    expect(limiter.take("tok", t0 + 500).allowed).toBe(true); // one token back after 0.5 s at 2/s
    expect(limiter.take("other", t0).remaining).toBe(2); // buckets are per key
  });

  it("reports seconds until the bucket is full again", () => {
    const limiter = new TokenBucketLimiter(1, 10);
    const state = limiter.take("k", 0);
    expect(state.resetSeconds).toBe(1);
  });
});
