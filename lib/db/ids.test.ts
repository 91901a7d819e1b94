import { describe, expect, it } from "vitest";
import { newId, pooledRandomBytes } from "./ids";

describe("newId", () => {
  it("is the prefix, ten characters of time and sixteen random ones", () => {
    expect(newId("cred", Date.UTC(2026, 10, 29))).toMatch(/^cred_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it("never repeats a random part, across refills of the random pool", () => {
    // 16 bytes per id, 4 KiB per refill: 2,000 ids span several refills.
    const randomParts = Array.from({ length: 2000 }, () => newId("evt", 0).slice(-16));
    expect(new Set(randomParts).size).toBe(randomParts.length);
  });

  it("sorts by creation time first", () => {
    const earlier = newId("evt", 1_000_000);
    const later = newId("evt", 2_000_000);
    expect(earlier < later).toBe(true);
  });
});

describe("pooledRandomBytes", () => {
  it("hands out each byte once: consecutive takes do not overlap", () => {
    const first = pooledRandomBytes(16);
    const second = pooledRandomBytes(16);
    const copy = Buffer.from(first);
    second.fill(0);
    expect(Buffer.from(first)).toEqual(copy);
  });

  it("gives the length asked for, larger than the pool too", () => {
    expect(pooledRandomBytes(7)).toHaveLength(7);
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });
});
