// The webhook worker against a scratch database and a real local receiver (WEBHOOK_ALLOW_PRIVATE=1):
// events written with a change are delivered signed, failures are recorded and retried, a hanging
// receiver does not hold up another (slow lane, per-endpoint cap), and a long failing streak disables the endpoint.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("webhook-worker", {
  WEBHOOK_ALLOW_PRIVATE: "1",
  WEBHOOK_RETRY_BASE_SECONDS: "10",
  WEBHOOK_RETRY_WINDOW_SECONDS: "3600",
});

const { db } = await import("../db");
const { recordWebhookEvents } = await import("./outbox");
const { createWebhookEndpoint, rotateWebhookSecret } = await import("./service");
const { deliverDueWebhooks } = await import("./worker");

type Received = { path: string; body: string; headers: Record<string, string> };
const received: Received[] = [];
const answerLater: http.ServerResponse[] = [];
let base = "";
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    received.push({ path: req.url ?? "", body, headers: req.headers as Record<string, string> });
    if (req.url === "/fail") return void res.writeHead(500).end("boom");
    if (req.url?.startsWith("/hang")) return; // never answers
    if (req.url === "/answer-later") return void answerLater.push(res); // the test answers
    res.writeHead(200).end("ok thanks");
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const id of ["org_a", "org_b", "org_c"]) await db().organization.create({ data: { id, slug: id, name: id } });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function emit(organizationId: string, type: "group.created" | "credential.deleted", data: unknown): Promise<number> {
  return db().$transaction((tx) => recordWebhookEvents(tx, organizationId, [{ type, data: () => data }]));
}

describe("webhook delivery", () => {
  it("writes nothing for an organization without a subscribed endpoint, and never builds the payload", async () => {
    let built = 0;
    const queued = await db().$transaction((tx) =>
      recordWebhookEvents(tx, "org_a", [{ type: "group.created", data: () => (built++, {}) }]),
    );
    expect(queued).toBe(0);
    expect(built).toBe(0);
    expect(await db().webhookEvent.count({ where: { organizationId: "org_a" } })).toBe(0);
  });

  it("delivers a subscribed event once, signed with the endpoint's secret, and records the attempt", async () => {
    const endpoint = await createWebhookEndpoint("org_a", { url: `${base}/ok`, events: ["group.created"] });
    expect(await emit("org_a", "credential.deleted", { id: "cred_x" })).toBe(0); // not subscribed
    expect(await emit("org_a", "group.created", { id: "grp_1" })).toBe(1);
    expect(await deliverDueWebhooks()).toBe(1);
    expect(await deliverDueWebhooks()).toBe(0);
    const got = received.filter((r) => r.path === "/ok");
    expect(got).toHaveLength(1);
    const body = new Webhook(endpoint.secret).verify(got[0]!.body, got[0]!.headers) as { id: string; type: string; data: unknown };
    expect(body).toMatchObject({ type: "group.created", data: { id: "grp_1" } });
    expect(got[0]!.headers["webhook-id"]).toBe(body.id);
    const attempts = await db().webhookAttempt.findMany({ where: { endpointId: endpoint.id } });
    expect(attempts).toMatchObject([{ attempt: 1, outcome: "succeeded", responseStatus: 200, responseExcerpt: "ok thanks", error: null }]);
  });

  it("retries a 500 later, with backoff, and keeps every attempt", async () => {
    const endpoint = await createWebhookEndpoint("org_b", { url: `${base}/fail`, events: ["*"] });
    await emit("org_b", "group.created", { id: "grp_2" });
    const now = new Date();
    expect(await deliverDueWebhooks(now)).toBe(1);
    expect(await deliverDueWebhooks(now)).toBe(0); // not due again yet
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(delivery).toMatchObject({ status: "queued", attempts: 1, leaseUntil: null });
    expect(delivery.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime() + 9_000);
    expect(await deliverDueWebhooks(new Date(now.getTime() + 11_000))).toBe(1);
    const again = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(again.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 19_000); // 20 s after the second
    const attempts = await db().webhookAttempt.findMany({ where: { endpointId: endpoint.id }, orderBy: { attempt: "asc" } });
    expect(attempts.map((a) => [a.attempt, a.outcome, a.responseStatus, a.responseExcerpt])).toEqual([
      [1, "failed", 500, "boom"],
      [2, "failed", 500, "boom"],
    ]);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.failingSince).not.toBeNull();
    expect(row.enabled).toBe(true);
  });

  it("disables an endpoint that has failed for the whole retry window, with the reason, and gives the delivery up", async () => {
    const endpoint = await db().webhookEndpoint.findFirstOrThrow({ where: { organizationId: "org_b" } });
    // As if the event and the failing streak had begun more than the window (an hour here) ago.
    const hoursAgo = new Date(Date.now() - 3_700_000);
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: hoursAgo } });
    await db().webhookDelivery.updateMany({ where: { endpointId: endpoint.id }, data: { createdAt: hoursAgo } });
    const later = new Date(Date.now() + 3_700_000);
    expect(await deliverDueWebhooks(later)).toBe(1);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.enabled).toBe(false);
    expect(row.disabledReason).toMatch(/^Disabled after failing continuously for 1 hours \(since .*\); last attempt: answered 500$/);
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({
      status: "failed",
      attempts: 3,
    });
    // Disabled: new events are not even written for it.
    expect(await emit("org_b", "group.created", { id: "grp_3" })).toBe(0);
  });

  it("signs with both secrets for a day after a rotation", async () => {
    const endpoint = await createWebhookEndpoint("org_c", { url: `${base}/ok`, events: ["credential.deleted"] });
    const rotated = await rotateWebhookSecret("org_c", endpoint.id);
    await emit("org_c", "credential.deleted", { id: "cred_r" });
    expect(await deliverDueWebhooks()).toBe(1);
    const got = received.filter((r) => r.body.includes("cred_r"));
    expect(got).toHaveLength(1);
    expect(got[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret])
      expect(new Webhook(secret).verify(got[0]!.body, got[0]!.headers)).toMatchObject({ data: { id: "cred_r" } });
  });

  it("hanging receivers of the same and another organization hold a few slots each, then only slow-lane slots; a healthy endpoint's events go out at once", async () => {
    const { LANES } = await import("./scheduling");
    const { webhookDelivery } = await import("./worker");
    await db().webhookEndpoint.updateMany({ where: { organizationId: "org_c" }, data: { url: `${base}/hang` } });
    const hangingSame = await createWebhookEndpoint("org_a", { url: `${base}/hang`, events: ["credential.deleted"] });
    // The healthy endpoint is org_a's first, subscribed to group.created only.
    const hangingOther = await db().webhookEndpoint.findFirstOrThrow({ where: { organizationId: "org_c" } });
    for (let i = 0; i < 30; i++) await emit("org_c", "credential.deleted", { id: `cred_h${i}` });
    for (let i = 0; i < 30; i++) await emit("org_a", "credential.deleted", { id: `cred_ha${i}` });
    await emit("org_a", "group.created", { id: "grp_fast" });
    const hangs = () => received.filter((r) => r.path === "/hang").length;
    const arrived = async (id: string, withinMs: number) => {
      const started = Date.now();
      while (!received.some((r) => r.path === "/ok" && r.body.includes(id)) && Date.now() - started < withinMs)
        await new Promise((r) => setTimeout(r, 20));
      return received.some((r) => r.path === "/ok" && r.body.includes(id));
    };

    // Not known to be slow yet: each hanging endpoint gets its small cap of the normal lane, no more.
    const pool = webhookDelivery();
    await pool.claim();
    expect(await arrived("grp_fast", 2000)).toBe(true);
    expect(hangs()).toBe(2 * LANES.normal.perEndpoint);
    await pool.settled(); // the hanging ones end at the 10 s deadline
    for (const endpoint of [hangingSame, hangingOther]) {
      const timedOut = await db().webhookAttempt.findMany({ where: { endpointId: endpoint.id, outcome: "failed" } });
      expect(timedOut).toHaveLength(LANES.normal.perEndpoint);
      for (const a of timedOut)
        expect(a).toMatchObject({
          outcome: "failed",
          responseStatus: null,
          error: expect.stringMatching(/no complete answer .* within 10 s/),
        });
      // Marked for the slow lane; the endpoint as the API shows it is unchanged.
      const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row.timedOutAt).not.toBeNull();
    }

    // Now in the slow lane: a couple of attempts each, and the healthy endpoint still goes at once.
    await db().webhookDelivery.updateMany({ where: { status: "queued" }, data: { nextAttemptAt: new Date() } });
    await emit("org_a", "group.created", { id: "grp_fast_again" });
    const before = hangs();
    const again = webhookDelivery();
    await again.claim();
    expect(await arrived("grp_fast_again", 2000)).toBe(true);
    expect(hangs() - before).toBe(2 * LANES.slow.perEndpoint);
    // The rows not claimed wait, queued and unleased: nothing is lost.
    expect(
      await db().webhookDelivery.count({
        where: { endpointId: { in: [hangingSame.id, hangingOther.id] }, status: "queued", leaseOwner: null },
      }),
    ).toBe(60 - 2 * LANES.slow.perEndpoint);
    await again.settled();

    // An answer in time takes the endpoint out of the slow lane.
    await db().webhookEndpoint.update({ where: { id: hangingOther.id }, data: { url: `${base}/ok` } });
    await db().webhookDelivery.updateMany({ where: { status: "queued" }, data: { nextAttemptAt: new Date() } });
    const recovered = webhookDelivery();
    await recovered.claim();
    await recovered.settled();
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hangingOther.id } })).timedOutAt).toBeNull();
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hangingSame.id } })).timedOutAt).not.toBeNull();
  }, 60_000);
});

describe("an endpoint suspected of hanging", () => {
  it("stops holding its organization's share once an attempt has run SUSPECT_AFTER_MS, long before the deadline", async () => {
    const { LANES, SUSPECT_AFTER_MS } = await import("./scheduling");
    const { webhookDelivery } = await import("./worker");
    await db().organization.create({ data: { id: "org_s", slug: "org_s", name: "org_s" } });
    // Four new endpoints that hang fill the organization's share of the normal lane (16 each).
    const hanging = [];
    for (let i = 0; i < LANES.normal.perOrganization / LANES.normal.perEndpoint; i++)
      hanging.push(await createWebhookEndpoint("org_s", { url: `${base}/hang-s`, events: ["credential.deleted"] }));
    await createWebhookEndpoint("org_s", { url: `${base}/ok`, events: ["group.created"] });
    for (let i = 0; i < 20; i++) await emit("org_s", "credential.deleted", { id: `cred_s${i}` });
    const pool = webhookDelivery();
    await pool.claim();
    const hangs = () => received.filter((r) => r.path === "/hang-s").length;
    const started = Date.now();
    // The organization's share: 64, or less when other organizations have deliveries queued too (the
    // lane is then split evenly between them); the hanging endpoints take all of it.
    let held = -1;
    while (hangs() !== held && Date.now() - started < 2000) {
      held = hangs();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(held).toBeGreaterThanOrEqual(LANES.normal.perEndpoint * 2);
    expect(held).toBeLessThanOrEqual(LANES.normal.perOrganization);

    // While they are young, the organization's share is theirs: its healthy endpoint waits.
    await emit("org_s", "group.created", { id: "grp_suspect" });
    const arrived = () => received.some((r) => r.path === "/ok" && r.body.includes("grp_suspect"));
    const arrivesWithin = async (ms: number) => {
      const from = Date.now();
      while (!arrived() && Date.now() - from < ms) await new Promise((r) => setTimeout(r, 20));
      return arrived();
    };
    await new Promise((r) => setTimeout(r, 150)); // past the pause between claims
    await pool.claim();
    expect(await arrivesWithin(300)).toBe(false);
    // Once they have run SUSPECT_AFTER_MS, it goes out, well before their 10 s deadline; they get no more.
    await new Promise((r) => setTimeout(r, SUSPECT_AFTER_MS - (Date.now() - started) + 50));
    await pool.claim();
    expect(await arrivesWithin(2000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(hangs()).toBe(held);
    await pool.settled();
    // Nothing lost: what the hanging endpoints did not get is still queued for them, unleased.
    expect(
      await db().webhookDelivery.count({ where: { endpointId: { in: hanging.map((e) => e.id) }, status: "queued", leaseOwner: null } }),
    ).toBe(hanging.length * 20);
  }, 60_000);
});

describe("webhook event retention", () => {
  it("deletes events older than 30 days with nothing queued, with their log; keeps queued and recent ones", async () => {
    const { deleteOldWebhookEvents } = await import("./retention");
    const endpoint = await createWebhookEndpoint("org_a", { url: `${base}/ok`, events: ["group.deleted"] });
    await emit("org_a", "group.created", { id: "grp_recent" });
    const ids = [];
    for (const id of ["grp_old_done", "grp_old_queued"]) {
      await db().$transaction((tx) => recordWebhookEvents(tx, "org_a", [{ type: "group.deleted", data: () => ({ id }) }]));
      ids.push((await db().webhookEvent.findFirstOrThrow({ where: { payload: { contains: id } } })).id);
    }
    const longAgo = new Date(Date.now() - 31 * 24 * 3600_000);
    await db().webhookEvent.updateMany({ where: { id: { in: ids } }, data: { createdAt: longAgo } });
    await db().webhookDelivery.updateMany({ where: { eventId: ids[0], endpointId: endpoint.id }, data: { status: "delivered" } });
    expect(await deleteOldWebhookEvents()).toBe(1);
    expect(await db().webhookEvent.findUnique({ where: { id: ids[0] } })).toBeNull();
    expect(await db().webhookDelivery.count({ where: { eventId: ids[0] } })).toBe(0);
    expect(await db().webhookEvent.findUnique({ where: { id: ids[1] } })).not.toBeNull();
    expect(await db().webhookEvent.count({ where: { payload: { contains: "grp_recent" } } })).toBe(1);
  });
});

describe("disabling and enabling an endpoint", () => {
  it("parks its queued deliveries while disabled, and delivers them once enabled again", async () => {
    const { updateWebhookEndpoint } = await import("./service");
    await db().organization.create({ data: { id: "org_p", slug: "org_p", name: "P" } });
    // Earlier tests' retries are not this test's business.
    await db().webhookDelivery.updateMany({ where: { status: "queued" }, data: { status: "failed" } });
    const endpoint = await createWebhookEndpoint("org_p", { url: `${base}/ok`, events: ["group.created"] });
    await emit("org_p", "group.created", { id: "grp_parked" });
    await updateWebhookEndpoint("org_p", endpoint.id, { enabled: false });
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({ status: "paused" });
    expect(await emit("org_p", "group.created", { id: "grp_unseen" })).toBe(0);
    const before = received.length;
    expect(await deliverDueWebhooks()).toBe(0);
    await updateWebhookEndpoint("org_p", endpoint.id, { enabled: true });
    expect(await deliverDueWebhooks()).toBe(1);
    expect(received.slice(before).map((r) => JSON.parse(r.body).data.id)).toEqual(["grp_parked"]);
  });
});

describe("retry of a delivery", () => {
  it("asked for while an attempt is under way: that attempt is logged, and the retry still sends it again", async () => {
    const { retryWebhookDelivery } = await import("./service");
    await db().organization.create({ data: { id: "org_r", slug: "org_r", name: "R" } });
    await db().webhookDelivery.updateMany({ where: { status: "queued" }, data: { status: "failed" } });
    const endpoint = await createWebhookEndpoint("org_r", { url: `${base}/answer-later`, events: ["group.created"] });
    await emit("org_r", "group.created", { id: "grp_retried" });
    const first = deliverDueWebhooks();
    while (answerLater.length === 0) await new Promise((r) => setTimeout(r, 10));
    // The receiver has the event; its answer (and the outcome's write) are still to come.
    const { eventId } = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    await retryWebhookDelivery("org_r", endpoint.id, eventId);
    answerLater.shift()!.writeHead(200).end("first");
    await first;
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({
      status: "queued",
      leaseOwner: null,
    });

    const second = deliverDueWebhooks();
    while (answerLater.length === 0) await new Promise((r) => setTimeout(r, 10));
    answerLater.shift()!.writeHead(200).end("second");
    expect(await second).toBe(1);
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
    const log = await db().webhookAttempt.findMany({ where: { endpointId: endpoint.id }, orderBy: { attempt: "asc" } });
    expect(log.map((a) => [a.attempt, a.outcome, a.responseExcerpt])).toEqual([
      [1, "succeeded", "first"],
      [2, "succeeded", "second"],
    ]);
  });
});
