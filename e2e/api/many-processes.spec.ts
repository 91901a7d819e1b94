// Several processes on one PostgreSQL database (docs/operating.md, Several processes): two web processes and two worker-only
// processes (CIS_BACKGROUND=only), each with a DATA_DIR of its own and one shared APP_SECRET, as on
// separate machines. The per-token rate limit holds across both web processes; every email goes out
// once although a worker is SIGKILLed with messages in flight; previews and wallet pages answer the
// same from each web process; a worker-only process serves nothing but its health. The sign-in lock-out
// and the public per-address limits hold across both web processes too, kept in the database or, with
// REDIS_URL, in a throw-away redis-server.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { test, expect, type ClientOptions } from "../fixtures";
import { redisServerInstalled, startThrowawayRedis } from "../../scripts/redis-throwaway";
import { queryRows } from "../support/databases";
import { expectError, expectStatus } from "../support/api-helpers";
import { newDataDir, newGroup, startOwnServer, uniqueEmail, type Credential, type OwnServer } from "../support/credentials";
import { sleep, SmtpSink, waitFor } from "../support/mail";
import { createOrgs } from "../support/state";
import { issueCredential, uniqueAddress, walletGroup } from "../support/wallet-helpers";
import { signInError } from "../support/sign-in";

const PER_SECOND = 5;
const BURST = 40;

test.describe("several processes on one PostgreSQL database", () => {
  test.skip(({ backend }) => backend !== "postgres", "the multi-process setup is PostgreSQL's (docs/operating.md, Several processes)");

  test("two web processes and two workers: one rate limit, each email once across a worker's SIGKILL, same previews and pages", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(300_000);
    const databaseUrl = await scratchDatabase();
    const label = `multi-${randomBytes(3).toString("hex")}`;
    const [org] = await createOrgs({ databaseUrl, dataDir: newDataDir(e2eState.runDir, `${label}-setup`) }, label, 0, 1);
    const sink = new SmtpSink();
    await sink.start();
    const shared = {
      DATABASE_URL: databaseUrl,
      APP_SECRET: randomBytes(32).toString("hex"),
      SMTP_URL: sink.url,
      // Short attempts, so the lease of a killed worker's messages runs out within the test.
      MAIL_ATTEMPT_TIMEOUT_SECONDS: "3",
      MAIL_RETRY_BASE_SECONDS: "1",
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
    };
    const servers: OwnServer[] = [];
    const start = async (name: string, env: Record<string, string>) => {
      const s = await startOwnServer(
        { ...shared, ...AS_IN_PRODUCTION, DATA_DIR: newDataDir(e2eState.runDir, `${label}-${name}`), ...env },
        path.join(e2eState.runDir, `${label}-${name}-${testInfo.project.name}.log`),
      );
      servers.push(s);
      return s;
    };
    try {
      const [webA, webB, worker1, worker2] = (await allStarted([
        start("web-a", { CIS_BACKGROUND: "off" }),
        start("web-b", { CIS_BACKGROUND: "off" }),
        start("worker-1", { CIS_BACKGROUND: "only" }),
        start("worker-2", { CIS_BACKGROUND: "only" }),
      ])) as [OwnServer, OwnServer, OwnServer, OwnServer];
      const apiA = await client({ baseURL: webA.baseURL, token: org!.token });
      const apiB = await client({ baseURL: webB.baseURL, token: org!.token });

      // A worker-only process answers its health and nothing else.
      const workerApi = await client({ baseURL: worker1.baseURL, token: org!.token });
      await expectError(await workerApi.get("/v1/groups"), 503, "service_unavailable");
      const health = await expectStatus(await workerApi.get("/healthz"), 200);
      expect(health).toMatchObject({ status: "ok", database: { status: "ok" } });

      await rateLimitHoldsAcrossProcesses(apiA, apiB);
      await sleep((BURST / PER_SECOND) * 1000); // the bucket refills before the next part

      // Email: 12 credentials issued and sent through both web processes while worker 2 is paused
      // (SIGSTOP), so worker 1 claims them; the sink holds its answers after DATA, and worker 1 is
      // SIGKILLed with messages in flight (none of them accepted). Worker 2 then finishes the work.
      let release!: () => void;
      sink.hold = new Promise<void>((resolve) => (release = resolve));
      const group = await newGroup(apiA);
      const emails = Array.from({ length: 12 }, (_, i) => uniqueEmail(`multi${i}`));
      const made: Credential[] = [];
      process.kill(-worker2.pid, "SIGSTOP");
      try {
        for (const [i, email] of emails.entries()) {
          const api = i % 2 ? apiB : apiA;
          made.push(
            await expectStatus(
              await api.post("/v1/credentials/create-issue-send", {
                data: { groupId: group.id, recipient: { name: `Multi ${i}`, email } },
              }),
              201,
            ),
          );
        }
        await waitFor("worker 1 has messages in flight", () => sink.rcptAttempts.length > 0, 30_000, 50);
        await sleep(300);
        await worker1.kill();
      } finally {
        process.kill(-worker2.pid, "SIGCONT");
      }
      expect(sink.received).toEqual([]);
      sink.hold = null;
      release();
      await waitFor("every message delivered", () => emails.every((e) => sink.to(e).length >= 1), 90_000, 200);
      await sleep(4000); // a duplicate would arrive within the retry delay
      for (const email of emails) expect(sink.to(email).length, `messages to ${email}`).toBe(1);
      // Each message kept one Message-ID across its attempts.
      expect(new Set(sink.received.map((r) => r.mail.messageId)).size).toBe(emails.length);
      const survivor = await client({ baseURL: worker2.baseURL });
      await waitFor(
        "no email waiting",
        async () => ((await expectStatus(await survivor.get("/healthz"), 200)) as { mailLagSeconds: number }).mailLagSeconds === 0,
        10_000,
        500,
      );

      // Previews and wallet pages: the same answer from either web process.
      const designs = (await expectStatus(await apiA.get(`/v1/credentials/${made[0]!.id}/designs`), 200)) as {
        previews: { format: string; url: string }[];
      }[];
      const png = new URL(designs[0]!.previews.find((p) => p.format === "png")!.url).pathname;
      const fromA = await (await client({ baseURL: webA.baseURL })).get(png);
      const fromB = await (await client({ baseURL: webB.baseURL })).get(png);
      expect(fromA.status()).toBe(200);
      expect(fromB.status()).toBe(200);
      expect(Buffer.compare(await fromA.body(), await fromB.body())).toBe(0);
      // Each process keeps the file in its own DATA_DIR; deleting the credential through one makes both answer 404.
      await expectStatus(await apiA.delete(`/v1/credentials/${made[0]!.id}`), 204);
      for (const web of [webA, webB])
        expect((await (await client({ baseURL: web.baseURL })).get(png)).status(), `${web.baseURL}${png} after the delete`).toBe(404);
      for (const web of [webA, webB]) {
        const page = await (await client({ baseURL: web.baseURL })).get(`/credentials/${made[1]!.publicId}`);
        expect(page.status()).toBe(200);
        expect(await page.text()).toContain("Multi 1");
      }
    } catch (error) {
      await attachServerLogs(testInfo, servers);
      throw error;
    } finally {
      for (const s of servers) await s.stop().catch(() => undefined);
      await sink.stop();
    }
  });
  test("two web processes share the sign-in lock-out and the per-address limit of the public routes", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.setTimeout(240_000);
    const databaseUrl = await scratchDatabase();
    const label = `limits-${randomBytes(3).toString("hex")}`;
    const [org] = await createOrgs({ databaseUrl, dataDir: newDataDir(e2eState.runDir, `${label}-setup`) }, label, 0, 1);
    const appSecret = randomBytes(32).toString("hex");
    const servers: OwnServer[] = [];
    try {
      const [webA, webB] = await startWebProcesses(servers, { DATABASE_URL: databaseUrl, APP_SECRET: appSecret }, (name) => ({
        dataDir: newDataDir(e2eState.runDir, `${label}-${name}`),
        logFile: path.join(e2eState.runDir, `${label}-${name}-${testInfo.project.name}.log`),
      }));

      const api = await client({ baseURL: webA.baseURL, token: org!.token });
      await signInLockOutHoldsAcrossProcesses(webA, webB);
      await walletEventLimitHoldsAcrossProcesses(api, webA, webB, client);
      await revocationReachesBothProcesses(databaseUrl, org!.token, webA, webB, client);
    } catch (error) {
      await attachServerLogs(testInfo, servers);
      throw error;
    } finally {
      for (const s of servers) await s.stop().catch(() => undefined);
    }
  });

  test("with REDIS_URL the limits live in Redis: the per-token limit, the sign-in lock-out and the per-address limit hold across two web processes; the database keeps no buckets", async ({
    scratchDatabase,
    e2eState,
    client,
  }, testInfo) => {
    test.skip(!redisServerInstalled() && !process.env.CI, "redis-server is not installed here (Debian: apt-get install redis-server)");
    test.setTimeout(240_000);
    const redis = await startThrowawayRedis();
    const databaseUrl = await scratchDatabase();
    const label = `redis-${randomBytes(3).toString("hex")}`;
    const [org] = await createOrgs({ databaseUrl, dataDir: newDataDir(e2eState.runDir, `${label}-setup`) }, label, 0, 1);
    const appSecret = randomBytes(32).toString("hex");
    const servers: OwnServer[] = [];
    try {
      const [webA, webB] = await startWebProcesses(
        servers,
        {
          DATABASE_URL: databaseUrl,
          APP_SECRET: appSecret,
          REDIS_URL: redis.url,
          RATE_LIMIT_PER_SECOND: String(PER_SECOND),
          RATE_LIMIT_BURST: String(BURST),
        },
        (name) => ({
          dataDir: newDataDir(e2eState.runDir, `${label}-${name}`),
          logFile: path.join(e2eState.runDir, `${label}-${name}-${testInfo.project.name}.log`),
        }),
      );
      const apiA = await client({ baseURL: webA.baseURL, token: org!.token });
      const apiB = await client({ baseURL: webB.baseURL, token: org!.token });
      await rateLimitHoldsAcrossProcesses(apiA, apiB);
      await sleep((BURST / PER_SECOND) * 1000); // the bucket refills before the next part
      await signInLockOutHoldsAcrossProcesses(webA, webB);
      await walletEventLimitHoldsAcrossProcesses(apiA, webA, webB, client);
      expect(await queryRows(databaseUrl, `SELECT "key" FROM "RateLimitBucket"`), "buckets in the database").toEqual([]);
      expect(await expectStatus(await apiA.get("/healthz"), 200)).toMatchObject({ status: "ok", redis: { status: "ok" } });

      // Redis goes away: requests are still answered (each process limits on its own meanwhile), and
      // the health check says so.
      await redis.stop();
      await expectStatus(await apiB.get("/v1/groups?limit=1"), 200);
      await waitFor(
        "/healthz to report Redis unavailable",
        async () => {
          const health = (await (await apiA.get("/healthz")).json()) as { status: string; redis?: { status: string } };
          return health.status === "degraded" && health.redis?.status === "unavailable";
        },
        10_000,
      );
      await expectStatus(await apiA.get("/v1/groups?limit=1"), 200);
    } catch (error) {
      await attachServerLogs(testInfo, servers);
      throw error;
    } finally {
      for (const s of servers) await s.stop().catch(() => undefined);
      await redis.stop();
    }
  });
});

/**
 * These processes stand for a production layout, so they load every page's code at start, as
 * production does (other extra test servers skip that, e2e/support/servers.ts). Loading a page's code
 * on its first visit holds a process's thread for up to a second on a busy machine, and a Redis take
 * in flight meanwhile runs out its 500 ms and falls back, which /healthz then reports for a minute.
 */
const AS_IN_PRODUCTION = { CIS_PRELOAD_PAGES: "on" };

type ClientFactory = (options?: ClientOptions) => Promise<APIRequestContext>;

/**
 * Each web process keeps the callers of the tokens it has seen (lib/organizations/caller-cache.ts); a
 * revocation written by anyone else (here straight into the database, as the CLI does) must reach both.
 */
async function revocationReachesBothProcesses(
  databaseUrl: string,
  token: string,
  webA: OwnServer,
  webB: OwnServer,
  client: ClientFactory,
): Promise<void> {
  const apis = [await client({ baseURL: webA.baseURL, token }), await client({ baseURL: webB.baseURL, token })];
  for (const api of apis) for (let i = 0; i < 3; i++) await expectStatus(await api.get("/v1/groups"), 200);
  await queryRows(databaseUrl, `UPDATE "ApiToken" SET "revokedAt" = now() WHERE "prefix" = '${token.slice(0, 12)}'`);
  // PostgreSQL tells both processes when the update commits; the poll only absorbs the notice's delivery.
  for (const api of apis) await expect.poll(async () => (await api.get("/v1/groups")).status(), { timeout: 2_000 }).toBe(401);
  for (const api of apis) await expectError(await api.get("/v1/designs"), 401, "unauthorized");
}

/** Two web processes without background work on the same settings, each added to `servers` (to be stopped) once up. */
async function startWebProcesses(
  servers: OwnServer[],
  env: Record<string, string>,
  place: (name: string) => { dataDir: string; logFile: string },
): Promise<[OwnServer, OwnServer]> {
  return (await allStarted(
    (["web-a", "web-b"] as const).map(async (name) => {
      const { dataDir, logFile } = place(name);
      const s = await startOwnServer({ ...env, ...AS_IN_PRODUCTION, CIS_BACKGROUND: "off", DATA_DIR: dataDir }, logFile);
      servers.push(s);
      return s;
    }),
  )) as [OwnServer, OwnServer];
}

/** The servers' output, attached to a failed test's report (their log files are removed with the run). */
async function attachServerLogs(testInfo: TestInfo, servers: OwnServer[]): Promise<void> {
  for (const [i, s] of servers.entries()) await testInfo.attach(`server-${i}.log`, { body: s.output(), contentType: "text/plain" });
}

/**
 * Waits for every server start, not only until the first failure (as Promise.all would): the finally
 * blocks stop what `servers` holds, and a server that came up after another failed must be in it.
 */
async function allStarted<T>(starts: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * One token, requests alternating between the two web processes, 8 at a time for at least 3 s and until
 * some are refused (on a loaded machine 3 s may not reach the burst): accepted requests stay within the
 * one bucket (BURST + PER_SECOND × elapsed) and reach at least 90% of it.
 */
async function rateLimitHoldsAcrossProcesses(apiA: APIRequestContext, apiB: APIRequestContext): Promise<void> {
  const started = Date.now();
  const atLeastUntil = started + 3000;
  const atMostUntil = started + 60_000;
  let accepted = 0;
  let limited = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < atMostUntil && (Date.now() < atLeastUntil || limited === 0)) {
        const api = n++ % 2 ? apiB : apiA;
        const res = await api.get("/v1/groups?limit=1");
        if (res.status() === 200) accepted++;
        else if (res.status() === 429) limited++;
        else throw new Error(`unexpected ${res.status()}: ${await res.text()}`);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const allowance = BURST + PER_SECOND * elapsed;
  expect(limited, "some requests were limited").toBeGreaterThan(0);
  expect(accepted, `accepted of an allowance of ${allowance.toFixed(1)}`).toBeLessThanOrEqual(Math.ceil(allowance));
  expect(accepted, `accepted of an allowance of ${allowance.toFixed(1)}`).toBeGreaterThanOrEqual(
    Math.floor(0.9 * (BURST + PER_SECOND * 3)),
  );
}

/**
 * Sign-in: 5 quick attempts per (address, email), wherever they land. Alternating between the
 * processes, each would allow 5 of its own if it counted alone.
 */
async function signInLockOutHoldsAcrossProcesses(webA: OwnServer, webB: OwnServer): Promise<void> {
  const email = uniqueEmail("locked");
  const address = uniqueAddress();
  const outcomes: string[] = [];
  for (let i = 0; i < 6; i++) outcomes.push(await signInError(i % 2 ? webB.baseURL : webA.baseURL, email, "not the password", address));
  expect(outcomes).toEqual([...Array(5).fill("CredentialsSignin"), "TooManyAttempts"]);
  // Locked out on both processes, and only that address: another one may still try.
  expect(await signInError(webA.baseURL, email, "not the password", address)).toBe("TooManyAttempts");
  expect(await signInError(webB.baseURL, email, "not the password", uniqueAddress())).toBe("CredentialsSignin");
}

/** The wallet's public events: one address gets its burst (30) plus the refill (5/s) over both processes together. */
async function walletEventLimitHoldsAcrossProcesses(
  api: APIRequestContext,
  webA: OwnServer,
  webB: OwnServer,
  client: ClientFactory,
): Promise<void> {
  const credential = await issueCredential(api, (await walletGroup(api)).id, { name: "Ada Lovelace" });
  const visitorAddress = uniqueAddress();
  const visitors = await Promise.all(
    [webA, webB].map((web) => client({ baseURL: web.baseURL, version: null, headers: { "X-Forwarded-For": visitorAddress } })),
  );
  const body = { publicId: credential.publicId, eventType: "credential_viewed", triggeredBy: "guest" };
  const started = Date.now();
  const statuses: number[] = [];
  for (let round = 0; round < 5 && !statuses.includes(429); round++) {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => visitors[i % 2]!.post("/api/wallet/events", { data: body })));
    statuses.push(...answers.map((r) => r.status()));
  }
  const elapsed = (Date.now() - started) / 1000;
  const accepted = statuses.filter((s) => s === 201).length;
  expect(
    statuses.filter((s) => s !== 201 && s !== 429),
    "only 201 and 429",
  ).toEqual([]);
  expect(statuses).toContain(429);
  expect(accepted, `accepted over both processes in ${elapsed.toFixed(1)} s`).toBeLessThanOrEqual(30 + Math.ceil(elapsed * 5) + 1);
  expect(accepted).toBeGreaterThanOrEqual(27);
}
