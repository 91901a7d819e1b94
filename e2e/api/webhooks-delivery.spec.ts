// Webhook deliveries end to end (docs/api.md, Webhooks), on a database and server of their own started
// with WEBHOOK_ALLOW_PRIVATE=1 so that a receiver on this machine stands in for the internet, and fast
// retries (WEBHOOK_RETRY_BASE_SECONDS=1). The receiver verifies every delivery with the Standard
// Webhooks library.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { newDataDir, newGroup, startOwnServer, todayUtc, addDays, uniqueEmail, type OwnServer } from "../support/credentials";
import { sleep, waitFor } from "../support/mail";
import { createOrgs, type E2EState, type Org } from "../support/state";
import { WebhookReceiver, type Delivery } from "../support/webhook-receiver";

test.describe.configure({ timeout: 90_000 });

type World = { databaseUrl: string; dataDir: string; org: Org; other: Org };

async function ownWorld(scratchDatabase: () => Promise<string>, e2eState: E2EState, label: string): Promise<World> {
  const databaseUrl = await scratchDatabase();
  const dataDir = newDataDir(e2eState.runDir, label);
  const [org, other] = await createOrgs({ databaseUrl, dataDir }, `${label}-${randomBytes(3).toString("hex")}`, 0, 2);
  return { databaseUrl, dataDir, org: org!, other: other! };
}

function webhookEnv(world: World, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: world.databaseUrl,
    DATA_DIR: world.dataDir,
    WEBHOOK_ALLOW_PRIVATE: "1",
    WEBHOOK_RETRY_BASE_SECONDS: "1",
    ...extra,
  };
}

async function attachLogs(testInfo: TestInfo, servers: OwnServer[]) {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [i, s] of servers.entries()) await testInfo.attach(`own-server-${i}.log`, { body: s.output(), contentType: "text/plain" });
}

async function addEndpoint(api: APIRequestContext, receiver: WebhookReceiver, pathName: string, events: string[] = ["*"]) {
  const endpoint = await expectStatus(await api.post("/v1/webhooks", { data: { url: `${receiver.url}${pathName}`, events } }), 201);
  receiver.expectSecrets(pathName, endpoint.secret);
  return endpoint as { id: string; secret: string };
}

type Attempt = {
  id: string;
  eventId: string;
  type: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  responseBodyExcerpt: string | null;
  createdAt: string;
};

async function attempts(api: APIRequestContext, endpointId: string): Promise<Attempt[]> {
  return (await expectStatus(await api.get(`/v1/webhooks/${endpointId}/deliveries?limit=100`), 200)).data;
}

function verifiesWith(secret: string, delivery: Delivery): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
    return true;
  } catch {
    return false;
  }
}

function verified(deliveries: Delivery[]) {
  for (const d of deliveries) expect(d.event, `signature of ${d.body.slice(0, 200)}`).not.toBeNull();
  return deliveries.map((d) => d.event!);
}

/** A database, server and receiver of each test's own: tests tell nothing apart by content. */
test.describe("webhook deliveries", () => {
  test.describe.configure({ mode: "default" });
  let world: World | undefined;
  let server: OwnServer | undefined;
  let receiver: WebhookReceiver | undefined;

  test.beforeEach(async ({ scratchDatabase, e2eState }, testInfo) => {
    test.setTimeout(240_000);
    world = await ownWorld(scratchDatabase, e2eState, "webhooks");
    receiver = new WebhookReceiver();
    await receiver.start();
    server = await startOwnServer(
      webhookEnv(world),
      path.join(e2eState.runDir, `own-webhooks-${testInfo.testId}-${testInfo.project.name}.log`),
    );
  });

  test.afterEach(async ({}, testInfo) => {
    if (server) await attachLogs(testInfo, [server]);
    await server?.stop();
    await receiver?.stop();
    server = receiver = world = undefined;
  });

  test("every event type arrives signed, once, with the resource as the API returns it", async ({ client }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    await addEndpoint(api, receiver!, "/ok/all");
    const group = await newGroup(api, { name: "Webhook Course" });
    const renamed = await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { name: "Webhook Course II" } }), 200);
    const cis = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", {
        data: { groupId: group.id, recipient: { name: "Ada Lovelace", email: uniqueEmail("wh") } },
      }),
      201,
    );
    const draft = await expectStatus(
      await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Grace Hopper", email: uniqueEmail("wh2") } } }),
      201,
    );
    const patched = await expectStatus(
      await api.patch(`/v1/credentials/${draft.id}`, { data: { customAttributes: { "custom.score": "99" } } }),
      200,
    );
    const issued = await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200);
    const sent = await expectStatus(await api.post(`/v1/credentials/${draft.id}/send`, { data: { deliveryMethod: "email" } }), 200);
    const interaction = await expectStatus(
      await api.post("/v1/credential-interactions", {
        data: { credentialId: draft.id, eventType: "credential_viewed", triggeredBy: "recipient", triggeredAt: new Date().toISOString() },
      }),
      201,
    );
    const revoked = await expectStatus(
      await api.post(`/v1/credentials/${draft.id}/revoke`, { data: { reason: "Issued by mistake" } }),
      200,
    );
    const doomed = await expectStatus(await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Temp" } } }), 201);
    expect((await api.delete(`/v1/credentials/${doomed.id}`)).status()).toBe(204);
    const spare = await newGroup(api, { name: "Spare" });
    expect((await api.delete(`/v1/groups/${spare.id}`)).status()).toBe(204);

    const expected: [string, unknown][] = [
      ["group.created", group],
      ["group.updated", renamed],
      ["credential.created", cis],
      ["credential.issued", cis],
      ["credential.sent", cis],
      ["credential.created", draft],
      ["credential.updated", patched],
      ["credential.issued", issued],
      ["credential.sent", sent],
      ["credential_interaction.created", interaction],
      ["credential.revoked", revoked],
      ["credential.created", doomed],
      ["credential.deleted", { id: doomed.id }],
      ["group.created", spare],
      ["group.deleted", spare],
    ];
    await waitFor(`${expected.length} deliveries`, () => receiver!.to("/ok/all").length >= expected.length, 30_000);
    await sleep(1500); // no more come
    const events = verified(receiver!.to("/ok/all"));
    expect(events).toHaveLength(expected.length);
    for (const [type, data] of expected) {
      const matching = events.filter((e) => e.type === type && JSON.stringify(e.data) === JSON.stringify(data));
      expect(matching, `${type} ${JSON.stringify(data).slice(0, 200)}`).toHaveLength(1);
    }
    for (const e of events) {
      expect(e.id).toMatch(/^evt_/);
      expect(Object.keys(e).sort()).toEqual(["createdAt", "data", "id", "type"]);
      expect(new Date(e.createdAt).toISOString()).toBe(e.createdAt);
    }
    for (const d of receiver!.to("/ok/all")) {
      expect(d.headers["webhook-id"]).toBe(d.event!.id);
      expect(d.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
      expect(d.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(d.headers["content-type"]).toBe("application/json");
    }
  });

  test("only subscribed events, only the organization's own; a rolled-back change sends nothing", async ({ client }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    const otherApi = await client({ baseURL: server!.baseURL, token: world!.other.token });
    await addEndpoint(api, receiver!, "/ok/groups", ["group.deleted", "group.created"]);
    const group = await newGroup(api);
    await expectStatus(await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Uses The Group" } } }), 201);
    // Refused (a credential uses the group): the transaction that would have written group.deleted rolls back.
    await expectError(await api.delete(`/v1/groups/${group.id}`), 409, "conflict");
    await newGroup(otherApi); // another organization's change
    await waitFor("the group.created delivery", () => receiver!.to("/ok/groups").length >= 1, 20_000);
    await sleep(2000);
    const events = verified(receiver!.to("/ok/groups"));
    expect(events.map((e) => [e.type, e.data.id])).toEqual([["group.created", group.id]]);
  });

  test("receivers that fail, hang, redirect or answer 10 MB: failed attempts recorded and retried, the healthy one served at once", async ({
    client,
  }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    const bad = {
      fail: await addEndpoint(api, receiver!, "/fail/1", ["group.created"]),
      hang: await addEndpoint(api, receiver!, "/hang/1", ["group.created"]),
      redirect: await addEndpoint(api, receiver!, "/redirect/1", ["group.created"]),
      huge: await addEndpoint(api, receiver!, "/huge/1", ["group.created"]),
    };
    const good = await addEndpoint(api, receiver!, "/ok/healthy", ["group.created"]);
    const started = Date.now();
    const group = await newGroup(api);
    await waitFor("the healthy delivery", () => receiver!.to("/ok/healthy").length === 1, 10_000, 25);
    expect(Date.now() - started, "delivered while the hanging receiver holds its request").toBeLessThan(8000);
    expect(verified(receiver!.to("/ok/healthy"))[0]!.data.id).toBe(group.id);
    // Nothing follows a redirect.
    expect(receiver!.to("/ok/redirected")).toEqual([]);

    const retried = async (endpointId: string) => {
      const list = await attempts(api, endpointId);
      return list.length >= 2 ? list : undefined;
    };
    const failList = await waitFor("a second attempt to the 500 receiver", () => retried(bad.fail.id), 20_000, 250);
    expect(failList[0]!.attempt).toBe(failList[1]!.attempt + 1); // newest first
    expect(failList[1]).toMatchObject({
      attempt: 1,
      status: "failed",
      responseStatus: 500,
      responseBodyExcerpt: "receiver exploded",
      type: "group.created",
    });
    expect(new Date(failList[0]!.createdAt) > new Date(failList[1]!.createdAt)).toBe(true);

    const redirectList = await waitFor("a second attempt to the redirecting receiver", () => retried(bad.redirect.id), 20_000, 250);
    expect(redirectList.at(-1)).toMatchObject({
      attempt: 1,
      status: "failed",
      responseStatus: 302,
      error: expect.stringMatching(/redirect/),
    });

    const hugeList = await waitFor("a second attempt to the 10 MB receiver", () => retried(bad.huge.id), 20_000, 250);
    expect(hugeList.at(-1)).toMatchObject({
      attempt: 1,
      status: "failed",
      responseStatus: null,
      error: expect.stringMatching(/larger than 65536 bytes/),
    });

    const hangList = await waitFor(
      "the hanging receiver's attempt to time out",
      async () => {
        const list = await attempts(api, bad.hang.id);
        return list.length >= 1 ? list : undefined;
      },
      30_000,
      250,
    );
    expect(hangList.at(-1)).toMatchObject({
      attempt: 1,
      status: "failed",
      responseStatus: null,
      error: expect.stringMatching(/within 10 s/),
    });
    expect(hangList.at(-1)!.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(hangList.at(-1)!.durationMs).toBeLessThan(15_000);

    const goodList = await attempts(api, good.id);
    expect(goodList).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "succeeded",
        responseStatus: 200,
        error: null,
        responseBodyExcerpt: "thanks",
        eventId: receiver!.to("/ok/healthy")[0]!.event!.id,
      }),
    ]);
  });

  test("hanging receivers of the same and another organization hold a few slots: the healthy endpoints' events go out at once", async ({
    client,
  }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    const otherApi = await client({ baseURL: server!.baseURL, token: world!.other.token });
    // Four hanging endpoints with 40 events each want more than all 128 delivery slots of the process.
    const hanging = [
      ...(await Promise.all(["/hang/a1", "/hang/a2", "/hang/a3"].map((p) => addEndpoint(api, receiver!, p, ["group.updated"])))),
      await addEndpoint(otherApi, receiver!, "/hang/b1", ["group.updated"]),
    ];
    await addEndpoint(api, receiver!, "/ok/a", ["group.updated"]);
    await addEndpoint(otherApi, receiver!, "/ok/b", ["group.updated"]);
    const groups = [await newGroup(api), await newGroup(otherApi)];
    const CHANGES = 40;
    for (let i = 0; i < CHANGES; i++) {
      await Promise.all(
        [api, otherApi].map(async (a, j) =>
          expectStatus(await a.patch(`/v1/groups/${groups[j]!.id}`, { data: { name: `Renamed ${i}` } }), 200),
        ),
      );
    }
    for (const path of ["/ok/a", "/ok/b"]) {
      await waitFor(`${CHANGES} deliveries to ${path}`, () => receiver!.to(path).length >= CHANGES, 20_000, 25);
      const delays = verified(receiver!.to(path)).map((e, i) => receiver!.to(path)[i]!.at - Date.parse(e.createdAt));
      // Before, the hanging endpoints took every slot and the healthy ones waited for their 10 s deadline.
      expect(Math.max(...delays), `${path}: the slowest delivery's delay (ms)`).toBeLessThan(5000);
    }
    // Meanwhile the hanging endpoints hold a few requests each, and the rest of their events wait, queued.
    for (const path of ["/hang/a1", "/hang/a2", "/hang/a3", "/hang/b1"]) {
      expect(receiver!.to(path).length, path).toBeGreaterThan(0);
      expect(receiver!.to(path).length, path).toBeLessThanOrEqual(16);
    }
    for (const [i, endpoint] of hanging.entries())
      expect((await attempts(i < 3 ? api : otherApi, endpoint.id)).length).toBeLessThan(CHANGES);
  });

  test("rotate: both secrets sign for a day; retry sends again now; disabled: no retry, no new events", async ({ client }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    const endpoint = await addEndpoint(api, receiver!, "/ok/rotating", ["group.created", "group.updated"]);
    const rotated = await expectStatus(await api.post(`/v1/webhooks/${endpoint.id}/rotate-secret`), 200);
    const group = await newGroup(api);
    await waitFor("a delivery", () => receiver!.to("/ok/rotating").length >= 1, 15_000);
    const first = receiver!.to("/ok/rotating")[0]!;
    expect(first.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) expect(verifiesWith(secret, first), "each secret alone verifies").toBe(true);
    expect(verifiesWith(`whsec_${randomBytes(32).toString("base64")}`, first)).toBe(false);

    const eventId = first.event!.id;
    await expectStatus(await api.post(`/v1/webhooks/${endpoint.id}/deliveries/${eventId}/retry`), 202);
    await waitFor("the retried delivery", () => receiver!.to("/ok/rotating").length >= 2, 15_000);
    const again = receiver!.to("/ok/rotating")[1]!;
    expect(again.headers["webhook-id"]).toBe(eventId);
    expect(again.body).toBe(first.body);
    const log = await waitFor("two attempts in the log", async () => {
      const list = await attempts(api, endpoint.id);
      return list.length >= 2 ? list : undefined;
    });
    expect(log.map((a) => [a.eventId, a.attempt, a.status])).toEqual([
      [eventId, 2, "succeeded"],
      [eventId, 1, "succeeded"],
    ]);

    await expectStatus(await api.patch(`/v1/webhooks/${endpoint.id}`, { data: { enabled: false } }), 200);
    await expectError(await api.post(`/v1/webhooks/${endpoint.id}/deliveries/${eventId}/retry`), 409, "conflict");
    await expectError(await api.post(`/v1/webhooks/${endpoint.id}/deliveries/evt_unknown/retry`), 404, "not_found");
    await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { name: "While disabled" } }), 200);
    await sleep(2000);
    expect(receiver!.to("/ok/rotating")).toHaveLength(2);
    expect(await attempts(api, endpoint.id)).toHaveLength(2);
  });

  test("a workflow connector's webhook trigger, with Certifier-Version only", async ({ client }) => {
    // The shape of a published automation connector's "new issued credential" trigger: it subscribes
    // with Certifier-Version, receives, and unsubscribes when the workflow is turned off.
    const connector = await client({
      baseURL: server!.baseURL,
      version: null,
      headers: {
        Authorization: `Bearer ${world!.org.token}`,
        "Certifier-Version": SERVICE_VERSION,
        "Content-Type": "application/json",
        "User-Agent": "automation-connector/1.4",
      },
    });
    const hook = await expectStatus(
      await connector.post("/v1/webhooks", {
        data: { url: `${receiver!.url}/ok/connector`, events: ["credential.issued"], description: "Zap 123" },
      }),
      201,
    );
    receiver!.expectSecrets("/ok/connector", hook.secret);
    const group = await newGroup(connector);
    const issued = await expectStatus(
      await connector.post("/v1/credentials/create-issue-send", {
        data: { groupId: group.id, recipient: { name: "Katherine Johnson", email: uniqueEmail("zap") } },
      }),
      201,
    );
    await waitFor("the trigger", () => receiver!.to("/ok/connector").length >= 1, 15_000);
    const [event] = verified(receiver!.to("/ok/connector"));
    expect(event).toMatchObject({ type: "credential.issued", data: { id: issued.id, status: "issued" } });
    expect((await connector.delete(`/v1/webhooks/${hook.id}`)).status()).toBe(204);
  });

  test("a scheduled credential announces credential.issued when its date comes, not before", async ({ client }) => {
    const api = await client({ baseURL: server!.baseURL, token: world!.org.token });
    await addEndpoint(api, receiver!, "/ok/scheduled", ["credential.issued", "credential.updated", "credential.sent"]);
    const group = await newGroup(api);
    const draft = await expectStatus(
      await api.post("/v1/credentials", {
        data: { groupId: group.id, issueDate: addDays(todayUtc(), 3), recipient: { name: "Later", email: uniqueEmail("later") } },
      }),
      201,
    );
    const scheduled = await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200);
    expect(scheduled.status).toBe("scheduled");
    // Moving the date to today issues it now.
    const now = await expectStatus(await api.patch(`/v1/credentials/${draft.id}`, { data: { issueDate: todayUtc() } }), 200);
    expect(now.status).toBe("issued");
    await waitFor("three deliveries", () => receiver!.to("/ok/scheduled").length >= 3, 15_000);
    await sleep(1500);
    const events = verified(receiver!.to("/ok/scheduled"));
    expect(events.map((e) => [e.type, e.data.status]).sort()).toEqual([
      ["credential.issued", "issued"],
      ["credential.updated", "issued"],
      ["credential.updated", "scheduled"],
    ]);
  });
});

test("a SIGKILL during deliveries loses none: every event arrives after the restart", async ({
  scratchDatabase,
  e2eState,
  client,
}, testInfo) => {
  test.setTimeout(240_000);
  const world = await ownWorld(scratchDatabase, e2eState, "webhooks-crash");
  const receiver = new WebhookReceiver();
  await receiver.start();
  const env = webhookEnv(world);
  const servers: OwnServer[] = [];
  try {
    const first = await startOwnServer(
      env,
      path.join(e2eState.runDir, `own-webhooks-crash-${testInfo.testId}-${testInfo.project.name}-1.log`),
    );
    servers.push(first);
    const api = await client({ baseURL: first.baseURL, token: world.org.token });
    // A slow receiver (1 s per answer): deliveries are in flight when the kill comes.
    await addEndpoint(api, receiver, "/slow/crash", ["group.created"]);
    const groups: string[] = [];
    const design = await expectStatus(await api.post("/v1/designs", { data: { name: "Crash design", type: "certificate" } }), 201);
    for (let i = 0; i < 30; i++) {
      groups.push((await expectStatus(await api.post("/v1/groups", { data: { name: `Crash ${i}`, designIds: [design.id] } }), 201)).id);
    }
    await waitFor("deliveries under way", () => receiver.to("/slow/crash").length >= 3, 20_000, 20);
    await first.kill();
    await sleep(1500); // the receiver's answers to the killed server go nowhere
    const answeredIds = () => new Set(verified(receiver.to("/slow/crash").filter((d) => d.answered)).map((e) => e.data.id));
    const unanswered = receiver.to("/slow/crash").filter((d) => !d.answered);
    expect(unanswered.length, "deliveries in flight when the server was killed").toBeGreaterThan(0);
    expect(answeredIds().size).toBeLessThan(groups.length);

    const second = await startOwnServer(
      env,
      path.join(e2eState.runDir, `own-webhooks-crash-${testInfo.testId}-${testInfo.project.name}-2.log`),
    );
    servers.push(second);
    // Deliveries whose lease was held at the kill are sent again once it runs out (30 s).
    await waitFor("an answered delivery of every group's event after the restart", () => answeredIds().size >= groups.length, 150_000, 250);
    expect(answeredIds()).toEqual(new Set(groups));
    const unansweredAgain = unanswered
      .map((d) => d.event!.data.id)
      .filter((id) => receiver.to("/slow/crash").some((d) => d.answered && d.event!.data.id === id));
    expect(unansweredAgain.length, "each delivery cut off by the kill came again").toBe(unanswered.length);
    // At least once: what was in flight at the kill (claimed, outcome not yet recorded) came once more,
    // nothing more often. That includes an answer that reached the server just before it died.
    const ids = verified(receiver.to("/slow/crash")).map((e) => e.data.id);
    for (const id of groups) expect(ids.filter((x) => x === id).length, id).toBeLessThanOrEqual(2);
  } finally {
    await attachLogs(testInfo, servers);
    for (const s of servers) await s.kill();
    await receiver.stop();
  }
});
