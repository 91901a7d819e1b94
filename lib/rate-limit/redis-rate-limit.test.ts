// Against a real redis-server (Debian's `redis-server`, which .ci/run installs), started on a free port
// for these tests. Two connections stand in for two processes. Skipped where redis-server is not
// installed, except in CI, where its absence is a failure.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freeLoopbackPort, redisServerInstalled, startThrowawayRedis, type ThrowawayRedis } from "../../scripts/redis-throwaway";
import { ConfigError, parseConfig } from "../config";
import { connectRedis, REDIS_KEY_PREFIX, RedisBuckets, type TakingRedis } from "./redis-rate-limit";

const runHere = redisServerInstalled() || Boolean(process.env.CI);

let server: ThrowawayRedis | undefined;
const clients: TakingRedis[] = [];

function connect(): TakingRedis {
  const client = connectRedis(server!.url);
  clients.push(client);
  return client;
}

async function ready(client: TakingRedis): Promise<TakingRedis> {
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  return client;
}

beforeAll(async () => {
  if (runHere) server = await startThrowawayRedis();
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.stop();
});

afterEach(() => vi.restoreAllMocks());

let n = 0;
const uniqueNamespace = () => `t${++n}-${Date.now()}:`;

describe.skipIf(!runHere)("RedisBuckets", () => {
  it("allows the burst, then refuses with the seconds until a token is back, as the in-memory limiter does", async () => {
    const buckets = new RedisBuckets(await ready(connect()), 2, 3, uniqueNamespace());
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await buckets.take("tok"));
    expect(taken.map((s) => s.allowed)).toEqual([true, true, true, false]);
    expect(taken[0]).toMatchObject({ limit: 3, remaining: 2, retryAfterSeconds: 0 });
    expect(taken[3]).toMatchObject({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1 });
    expect(taken[3]!.resetSeconds).toBe(2);
    // Buckets are per key.
    expect((await buckets.take("other")).remaining).toBe(2);
  });

  it("one bucket for every process: two connections taking alternately get the burst once between them", async () => {
    const namespace = uniqueNamespace();
    const a = new RedisBuckets(await ready(connect()), 0.01, 10, namespace);
    const b = new RedisBuckets(await ready(connect()), 0.01, 10, namespace);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take("shared")));
    expect(answers.filter((s) => s.allowed)).toHaveLength(10);
  });

  it("a process's first requests, made while it connects, wait for Redis rather than each process counting alone", async () => {
    const namespace = uniqueNamespace();
    // Not yet connected: as in a process's first milliseconds.
    const a = new RedisBuckets(connect(), 0.01, 10, namespace);
    const b = new RedisBuckets(connect(), 0.01, 10, namespace);
    expect([a.client.status, b.client.status]).not.toContain("ready");
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take("first")));
    expect(answers.filter((s) => s.allowed)).toHaveLength(10);
  });

  it("refills by Redis's clock, and never past the burst", async () => {
    const buckets = new RedisBuckets(await ready(connect()), 2, 2, uniqueNamespace());
    await buckets.take("k");
    await buckets.take("k");
    expect((await buckets.take("k")).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 1_600)); // 3 tokens' worth at 2/s; the burst is 2
    expect((await buckets.take("k")).allowed).toBe(true);
    expect((await buckets.take("k")).allowed).toBe(true);
    expect((await buckets.take("k")).allowed).toBe(false);
  });

  it("a bucket's key expires once it would be full again, under the service's prefix", async () => {
    const client = await ready(connect());
    const namespace = uniqueNamespace();
    const buckets = new RedisBuckets(client, 10, 20, namespace);
    await buckets.take("ttl");
    const ttl = await client.pttl(`${REDIS_KEY_PREFIX}${namespace}ttl`);
    // One token to refill at 10/s: 100 ms, plus a second of slack.
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_100);
  });

  it("hasToken looks without taking; forget and forgetPrefix start buckets full, glob characters matching only themselves", async () => {
    const buckets = new RedisBuckets(await ready(connect()), 0.01, 1, uniqueNamespace());
    expect(await buckets.hasToken("x")).toBe(true);
    expect(await buckets.hasToken("x")).toBe(true);
    await buckets.take("x");
    expect(await buckets.hasToken("x")).toBe(false);
    await buckets.forget("x");
    expect(await buckets.hasToken("x")).toBe(true);

    for (const key of ["user*:a", "userX:b", "user*:c"]) await buckets.take(key);
    await buckets.forgetPrefix("user*:");
    expect(await buckets.hasToken("user*:a")).toBe(true);
    expect(await buckets.hasToken("user*:c")).toBe(true);
    // "*" in the prefix is a character, not a wildcard: userX's bucket is still empty.
    expect(await buckets.hasToken("userX:b")).toBe(false);
  });

  it("a Redis that stops answering costs one command timeout, then takes skip it for a few seconds; /healthz would say so", async () => {
    const ownPort = await freeLoopbackPort();
    const own = await startThrowawayRedis(ownPort);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const client = connectRedis(own.url);
    clients.push(client);
    try {
      const buckets = new RedisBuckets(await ready(client), 0.01, 100, uniqueNamespace());
      expect((await buckets.take("k")).allowed).toBe(true);
      process.kill(own.pid, "SIGSTOP"); // connected, silent: as a partition or a stuck server
      let started = Date.now();
      expect((await buckets.take("k")).allowed).toBe(true); // from memory, after the timeout
      expect(Date.now() - started).toBeLessThan(1_500);
      started = Date.now();
      for (let i = 0; i < 20; i++) await buckets.take("k");
      expect(Date.now() - started, "skipped, not 20 more timeouts").toBeLessThan(200);
      expect(client.cisLastFailureAt).toBeGreaterThan(0);
    } finally {
      process.kill(own.pid, "SIGCONT");
      stderr.mockRestore();
      client.disconnect();
      await own.stop();
    }
  }, 30_000);

  it("while Redis is away each process limits on its own, logs that once, and shares the bucket again once Redis is back", async () => {
    const ownPort = await freeLoopbackPort();
    let own = await startThrowawayRedis(ownPort);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const client = connectRedis(`redis://127.0.0.1:${ownPort}`);
    clients.push(client);
    try {
      await ready(client);
      const buckets = new RedisBuckets(client, 0.01, 3, uniqueNamespace());
      expect((await buckets.take("k")).allowed).toBe(true);

      await own.stop();
      await new Promise((r) => setTimeout(r, 100));
      // Still limited (the fallback's own burst of 3), answered at once, not an error.
      const started = Date.now();
      const away = [];
      for (let i = 0; i < 5; i++) away.push((await buckets.take("k")).allowed);
      expect(away).toEqual([true, true, true, false, false]);
      expect(Date.now() - started).toBeLessThan(2_000);
      const warnings = stderr.mock.calls.map(([line]) => String(line)).filter((l) => l.includes("redis"));
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.length).toBeLessThanOrEqual(2); // the connection's loss, and the first fallback
      for (const w of warnings) expect(w).not.toContain(String(ownPort));

      own = await startThrowawayRedis(ownPort);
      await ready(client);
      // Redis lost its data with the restart: the shared bucket is full again.
      expect((await buckets.take("k")).remaining).toBe(2);
    } finally {
      stderr.mockRestore();
      client.disconnect();
      await own.stop();
    }
  }, 30_000);
});

describe("REDIS_URL", () => {
  it("takes redis:// and rediss:// URLs; anything else is named without its value", () => {
    expect(parseConfig({ REDIS_URL: "redis://:pw@cache.internal:6380/2" }).redisUrl).toBe("redis://:pw@cache.internal:6380/2");
    expect(parseConfig({ REDIS_URL: "rediss://cache.example" }).redisUrl).toBe("rediss://cache.example");
    expect(parseConfig({ REDIS_URL: "  " }).redisUrl).toBeNull();
    expect(parseConfig({}).redisUrl).toBeNull();
    expect(parseConfig({ REDIS_URL: "redis://user:p%40ss@[::1]:6379" }).redisUrl).toBe("redis://user:p%40ss@[::1]:6379");
    // Each of these the client would refuse only when first used, failing every limited request then.
    for (const bad of [
      "http://user:secret@cache",
      "redis://:secret%zz@cache",
      "redis://cache:99999",
      "redis://[::1",
      "redis://secret@",
      "redis://cache/db?x=secret",
    ]) {
      try {
        parseConfig({ REDIS_URL: bad });
        expect.unreachable(bad);
      } catch (error) {
        expect(error, bad).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems.join(), bad).toMatch(/^REDIS_URL: must be redis:\/\//);
        expect((error as ConfigError).message, bad).not.toContain("secret");
      }
    }
  });
});
