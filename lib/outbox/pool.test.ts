import { describe, expect, it } from "vitest";
import { deliveryPool } from "./pool";

/** A queue of numbered rows, a claim that takes from it, deliveries that end when told to. */
function harness(rows: number) {
  const queue = Array.from({ length: rows }, (_, i) => i);
  const claims: number[] = [];
  const started: number[] = [];
  const recorded: number[] = [];
  const released: number[] = [];
  const ending = new Map<number, () => void>();
  return {
    claims,
    started,
    recorded,
    released,
    finish: (row: number) => ending.get(row)!(),
    options: {
      name: "test_pool",
      claim: async (_now: Date, limit: number) => {
        claims.push(limit);
        return queue.splice(0, limit);
      },
      deliver: (row: number) => {
        started.push(row);
        return new Promise<number>((resolve) => ending.set(row, () => resolve(row)));
      },
      record: async (outcomes: number[]) => void recorded.push(...outcomes),
      release: async (rows: number[]) => void released.push(...rows),
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("the delivery pool", () => {
  it("without prefetch claims only for free slots", async () => {
    const h = harness(10);
    const pool = deliveryPool({ ...h.options, parallel: 2 });
    expect(await pool.claim()).toBe(2);
    expect(await pool.claim()).toBe(0);
    expect(h.claims).toEqual([2]);
    expect(h.started).toEqual([0, 1]);
  });

  it("with prefetch holds claimed rows and starts each as a slot frees, without another claim", async () => {
    const h = harness(10);
    const pool = deliveryPool({ ...h.options, parallel: 2, prefetch: 4, freeSlotWhenAttempted: true });
    expect(await pool.claim()).toBe(6);
    expect(h.started).toEqual([0, 1]);
    h.finish(0);
    await tick();
    expect(h.started).toEqual([0, 1, 2]);
    for (const row of [1, 2, 3, 4, 5]) {
      h.finish(row);
      await tick();
    }
    expect(h.claims).toEqual([6]);
    expect(h.started).toEqual([0, 1, 2, 3, 4, 5]);
    await pool.settled();
    expect(h.recorded.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(h.released).toEqual([]);
  });

  it("claims again once fewer than half the prefetched rows remain held", async () => {
    const h = harness(20);
    const pool = deliveryPool({ ...h.options, parallel: 2, prefetch: 4, freeSlotWhenAttempted: true });
    await pool.claim();
    expect(await pool.claim()).toBe(0); // 4 held
    h.finish(0);
    h.finish(1);
    await tick(); // 2 and 3 started, 2 held: not more than half
    expect(await pool.claim()).toBe(2);
    expect(h.claims).toEqual([6, 2]);
  });

  it("gives back rows held longer than maxHoldMs instead of starting them late", async () => {
    const h = harness(3);
    const pool = deliveryPool({ ...h.options, parallel: 1, prefetch: 2, maxHoldMs: 30, freeSlotWhenAttempted: true });
    await pool.claim();
    expect(h.started).toEqual([0]);
    await new Promise((r) => setTimeout(r, 60));
    h.finish(0);
    await pool.settled();
    expect(h.started).toEqual([0]);
    expect(h.released).toEqual([1, 2]);
    expect(h.recorded).toEqual([0]);
  });

  it("settled waits for held rows too", async () => {
    const h = harness(4);
    const pool = deliveryPool({ ...h.options, parallel: 1, prefetch: 3, freeSlotWhenAttempted: true });
    await pool.claim();
    let done = false;
    const settled = pool.settled().then(() => (done = true));
    for (const row of [0, 1, 2]) {
      h.finish(row);
      await tick();
      expect(done).toBe(false);
    }
    h.finish(3);
    await settled;
    expect(h.recorded.sort()).toEqual([0, 1, 2, 3]);
  });
});
