// The wallet page's own public endpoints (docs/api.md, Interactions): POST /api/wallet/events records an event
// without any API token from {publicId, eventType, triggeredBy} (the time is the server's), only for issued
// and expired credentials, rejects bad input with the contract's error envelope, and is rate-limited per
// client address. POST /api/wallet/verify re-checks a credential and records `credential_verified`.
//
// The test servers run with TRUST_PROXY=1: the client address is the last X-Forwarded-For entry, so each
// test sends an address of its own and rate limits do not couple tests.
import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import {
  draftCredential,
  eventSummary,
  expiredCredential,
  interactionsOf,
  issueCredential,
  scheduledCredential,
  uniqueAddress,
  walletGroup,
  type Credential,
  type Interaction,
} from "../support/wallet-helpers";

const EVENT_TYPES = [
  "credential_viewed",
  "credential_shared_to_linkedin",
  "credential_added_to_linkedin_profile",
  "credential_shared_to_facebook",
  "credential_shared_to_twitter",
  "credential_shared_to_messenger",
  "credential_shared_to_whatsapp",
  "credential_shared_to_pinterest",
  "credential_shared_to_telegram",
  "credential_shared_to_weibo",
  "credential_downloaded",
  "credential_link_copied",
  "credential_verified",
] as const;

/** A client without token or version header, from an address of its own. */
async function visitor(
  client: (o: { version?: string | null; headers?: Record<string, string> }) => Promise<APIRequestContext>,
  address = uniqueAddress(),
) {
  return client({ version: null, headers: { "X-Forwarded-For": address } });
}

async function issued(api: APIRequestContext, name = "Ada Lovelace"): Promise<Credential> {
  const group = await walletGroup(api);
  return issueCredential(api, group.id, { name });
}

const postEvent = (ctx: APIRequestContext, body: unknown, headers: Record<string, string> = {}) =>
  ctx.post(
    "/api/wallet/events",
    typeof body === "string"
      ? { data: body, headers: { "Content-Type": "application/json", ...headers } }
      : { data: body as object, headers },
  );

test.describe("POST /api/wallet/events", () => {
  test("a valid event without any token → 201 with the server's time, and it reads back through the API", async ({ api, client }) => {
    const credential = await issued(api);
    const pub = await visitor(client);
    const before = Date.now();
    const created: Interaction[] = [];
    for (const [i, eventType] of EVENT_TYPES.entries()) {
      const triggeredBy = i % 2 ? "guest" : "recipient";
      const res = await postEvent(pub, { publicId: credential.publicId, eventType, triggeredBy });
      const body = (await expectStatus(res, 201)) as Interaction;
      expect(res.headers()["content-type"]).toContain("application/json");
      expect(Object.keys(body).sort()).toEqual(["credentialId", "eventType", "id", "triggeredAt", "triggeredBy"]);
      expect(body).toMatchObject({ credentialId: credential.id, eventType, triggeredBy });
      expect(body.triggeredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
      created.push(body);
    }
    const after = Date.now();
    for (const e of created) {
      expect(Date.parse(e.triggeredAt)).toBeGreaterThanOrEqual(before - 2000);
      expect(Date.parse(e.triggeredAt)).toBeLessThanOrEqual(after + 2000);
    }
    const listed = await interactionsOf(api, credential.id);
    expect([...listed].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...created].sort((a, b) => a.id.localeCompare(b.id)));
  });

  test("an expired credential still records events", async ({ api, client }) => {
    const group = await walletGroup(api);
    const credential = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
    const pub = await visitor(client);
    await expectStatus(await postEvent(pub, { publicId: credential.publicId, eventType: "credential_viewed", triggeredBy: "guest" }), 201);
    expect(eventSummary(await interactionsOf(api, credential.id))).toEqual(["credential_viewed/guest"]);
  });

  test("bad input → 400 in the contract's envelope with details paths, and nothing is recorded", async ({ api, client }) => {
    const credential = await issued(api);
    const pub = await visitor(client);
    const ok = { publicId: credential.publicId, eventType: "credential_viewed", triggeredBy: "guest" };
    const cases: [string, unknown, string[]][] = [
      ["unknown eventType", { ...ok, eventType: "credential_liked" }, ["eventType"]],
      ["eventType of another case", { ...ok, eventType: "CREDENTIAL_VIEWED" }, ["eventType"]],
      ["eventType missing", { publicId: ok.publicId, triggeredBy: "guest" }, ["eventType"]],
      ["eventType not a string", { ...ok, eventType: 1 }, ["eventType"]],
      ["unknown triggeredBy", { ...ok, triggeredBy: "issuer" }, ["triggeredBy"]],
      ["triggeredBy missing", { publicId: ok.publicId, eventType: "credential_viewed" }, ["triggeredBy"]],
      ["triggeredBy null", { ...ok, triggeredBy: null }, ["triggeredBy"]],
      ["publicId missing", { eventType: "credential_viewed", triggeredBy: "guest" }, ["publicId"]],
      ["publicId not a UUID", { ...ok, publicId: "not-a-uuid" }, ["publicId"]],
      ["publicId is the credential id", { ...ok, publicId: credential.id }, ["publicId"]],
      ["publicId a number", { ...ok, publicId: 42 }, ["publicId"]],
      ["an unknown field", { ...ok, source: "api" }, ["source"]],
      [
        "credentialId instead of publicId",
        { credentialId: credential.id, eventType: "credential_viewed", triggeredBy: "guest" },
        ["credentialId", "publicId"],
      ],
      ["the client choosing the time", { ...ok, triggeredAt: "2020-01-01T00:00:00Z" }, ["triggeredAt"]],
      [
        "everything wrong at once",
        { publicId: "x", eventType: "y", triggeredBy: "z", extra: true },
        ["publicId", "eventType", "triggeredBy", "extra"],
      ],
    ];
    for (const [what, body, paths] of cases) {
      await test.step(what, async () => {
        await expectError(await postEvent(pub, body), 400, "validation_error", { paths, exactPaths: true });
      });
    }
    for (const [what, raw] of [
      ["not JSON", "eventType=credential_viewed"],
      ["truncated JSON", `{"publicId":"${credential.publicId}",`],
      ["empty body", ""],
      ["a JSON array", JSON.stringify([ok])],
      ["a JSON string", JSON.stringify("credential_viewed")],
      ["JSON null", "null"],
    ] as const) {
      await test.step(what, async () => {
        await expectError(await postEvent(pub, raw), 400, "invalid_json");
      });
    }
    await test.step("a text/plain body that is not JSON", async () => {
      await expectError(
        await pub.post("/api/wallet/events", { data: "hello", headers: { "Content-Type": "text/plain" } }),
        400,
        "invalid_json",
      );
    });
    expect(await interactionsOf(api, credential.id)).toEqual([]);
  });

  test("an oversized body → 413, nothing recorded", async ({ api, client }) => {
    const credential = await issued(api);
    const pub = await visitor(client);
    const res = await postEvent(pub, {
      publicId: credential.publicId,
      eventType: "credential_viewed",
      triggeredBy: "guest",
      padding: "x".repeat(200_000),
    });
    await expectError(res, 413, "payload_too_large");
    expect(await interactionsOf(api, credential.id)).toEqual([]);
  });

  test("draft, scheduled, deleted and unknown credentials → 404 not_found, nothing recorded", async ({ api, client }) => {
    const group = await walletGroup(api);
    const draft = await draftCredential(api, group.id, { name: "Draft Person" });
    const scheduled = await scheduledCredential(api, group.id, { name: "Scheduled Person" });
    const deleted = await issueCredential(api, group.id, { name: "Deleted Person" });
    const pub = await visitor(client);
    await expectStatus(await postEvent(pub, { publicId: deleted.publicId, eventType: "credential_viewed", triggeredBy: "guest" }), 201);
    await expectStatus(await api.delete(`/v1/credentials/${deleted.id}`), 204);
    for (const [what, publicId] of [
      ["draft", draft.publicId],
      ["scheduled", scheduled.publicId],
      ["deleted", deleted.publicId],
      ["unknown", randomUUID()],
    ] as const) {
      await test.step(what, async () => {
        const body = await expectError(
          await postEvent(pub, { publicId, eventType: "credential_viewed", triggeredBy: "recipient" }),
          404,
          "not_found",
        );
        expect(body.error.message).not.toMatch(/prisma|sql|stack/i);
      });
    }
    expect(await interactionsOf(api, draft.id)).toEqual([]);
    expect(await interactionsOf(api, scheduled.id)).toEqual([]);
  });

  test("rate limited per client address: 429 with Retry-After past the burst, other addresses unaffected, the last X-Forwarded-For entry counts", async ({
    api,
    client,
  }) => {
    test.setTimeout(90_000);
    const credential = await issued(api);
    const mine = uniqueAddress();
    const pub = await visitor(client, mine);
    const body = { publicId: credential.publicId, eventType: "credential_viewed", triggeredBy: "guest" };

    // Bursts from one address until it is refused: at most the burst (30) plus the refill (5/s) get through.
    const started = Date.now();
    const responses: APIResponse[] = [];
    while (!responses.some((r) => r.status() === 429) && responses.length < 400) {
      responses.push(...(await Promise.all(Array.from({ length: 40 }, () => postEvent(pub, body)))));
    }
    const elapsed = (Date.now() - started) / 1000;
    const accepted = responses.filter((r) => r.status() === 201);
    const refused = responses.filter((r) => r.status() === 429);
    expect(refused.length, "requests past the burst are refused").toBeGreaterThan(0);
    expect(accepted.length + refused.length, `statuses: ${[...new Set(responses.map((r) => r.status()))].join(",")}`).toBe(
      responses.length,
    );
    expect(accepted.length).toBeGreaterThanOrEqual(30);
    expect(accepted.length, `accepted ${accepted.length} in ${elapsed.toFixed(1)} s`).toBeLessThanOrEqual(30 + Math.ceil(elapsed * 5) + 1);
    for (const r of refused.slice(0, 5)) {
      await expectError(r, 429, "rate_limited");
      const retryAfter = r.headers()["retry-after"];
      expect(retryAfter, "Retry-After").toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    }
    // Refused requests record nothing.
    await expect.poll(async () => (await interactionsOf(api, credential.id)).length).toBe(accepted.length);

    // The bucket refills at 5/s: a check that expects a refusal drains it right before, and a few tries
    // allow for a slow machine (a wrong address rule would be accepted every time).
    const drain = async () => {
      for (let i = 0; i < 20; i++) {
        if ((await Promise.all(Array.from({ length: 10 }, () => postEvent(pub, body)))).some((r) => r.status() === 429)) return;
      }
      throw new Error(`${mine} is never refused`);
    };
    const refusedAfterDraining = async (what: string, send: () => Promise<APIResponse>) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        await drain();
        const res = await send();
        if (res.status() === 429) return res;
        statuses.push(res.status());
      }
      throw new Error(`${what}: expected 429 right after draining ${mine}, got ${statuses.join(", ")}`);
    };

    // Another address is not affected…
    await drain();
    await expectStatus(await postEvent(pub, body, { "X-Forwarded-For": uniqueAddress() }), 201);
    await drain();
    await expectStatus(await postEvent(pub, body, { "X-Forwarded-For": `${mine}, ${uniqueAddress()}` }), 201);
    // …the client address is the last entry (the one the trusted proxy added), not what the client claims first.
    await expectError(
      await refusedAfterDraining("X-Forwarded-For: <other>, <mine>", () =>
        postEvent(pub, body, { "X-Forwarded-For": `${uniqueAddress()}, ${mine}` }),
      ),
      429,
      "rate_limited",
    );
    // The verify endpoint is public too, and limited the same way.
    await expectError(
      await refusedAfterDraining("verify", () =>
        pub.post("/api/wallet/verify", { data: { publicId: credential.publicId, triggeredBy: "guest" } }),
      ),
      429,
      "rate_limited",
    );

    // After Retry-After, the address may record again.
    const last = await refusedAfterDraining("events", () => postEvent(pub, body));
    await new Promise((r) => setTimeout(r, Number(last.headers()["retry-after"]) * 1000 + 250));
    await expectStatus(await postEvent(pub, body), 201);
  });
});

test("without TRUST_PROXY, X-Forwarded-For is not believed: a client cannot escape the limit by rotating it", async ({
  api,
  client,
  startServer,
}) => {
  const credential = await issued(api);
  const server = await startServer({ TRUST_PROXY: "0" });
  const pub = await client({ baseURL: server.baseURL, version: null, https: false });
  const body = { publicId: credential.publicId, eventType: "credential_viewed", triggeredBy: "guest" };
  const statuses: number[] = [];
  for (let batch = 0; batch < 10 && !statuses.includes(429); batch++) {
    const responses = await Promise.all(Array.from({ length: 40 }, () => postEvent(pub, body, { "X-Forwarded-For": uniqueAddress() })));
    statuses.push(...responses.map((r) => r.status()));
  }
  expect(statuses, "rotating X-Forwarded-For does not reset the limit").toContain(429);
  expect(new Set(statuses)).toEqual(new Set([201, 429]));
});

test.describe("POST /api/wallet/verify", () => {
  test("runs the verifier's checks on the signed document (the report /verify shows) and records one credential_verified", async ({
    api,
    org,
    client,
  }) => {
    const group = await walletGroup(api);
    const credential = await issueCredential(api, group.id, { name: "Radia Perlman" }, { expiryDate: "2099-12-31" });
    const pub = await visitor(client);
    const before = Date.now();
    const body = await expectStatus(
      await pub.post("/api/wallet/verify", { data: { publicId: credential.publicId, triggeredBy: "recipient" } }),
      200,
    );
    expect(body).toMatchObject({
      verdict: "valid",
      headline: expect.stringMatching(/^Valid: issued by E2E .* to Radia Perlman on /),
      facts: {
        issuerName: `E2E ${org.slug}`,
        recipientName: "Radia Perlman",
        achievementName: group.name,
        validFrom: `${credential.issueDate}T00:00:00Z`,
        validUntil: "2099-12-31T23:59:59Z",
      },
    });
    expect(body.checks.map((c: { id: string; outcome: string }) => `${c.id}:${c.outcome}`)).toEqual([
      "format:passed",
      "signature:passed",
      "issuer:warning",
      "status:passed",
      "validity:passed",
    ]);
    expect(Math.abs(Date.parse(body.checkedAt) - before)).toBeLessThan(30_000);
    expect(eventSummary(await interactionsOf(api, credential.id))).toEqual(["credential_verified/recipient"]);
  });

  test("an expired credential verifies as expired; drafts and unknown ids → 404; bad input → 400; nothing recorded for those", async ({
    api,
    client,
  }) => {
    const group = await walletGroup(api);
    const expired = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
    const draft = await draftCredential(api, group.id, { name: "Draft Person" });
    const pub = await visitor(client);
    const body = await expectStatus(
      await pub.post("/api/wallet/verify", { data: { publicId: expired.publicId, triggeredBy: "guest" } }),
      200,
    );
    expect(body).toMatchObject({
      verdict: "expired",
      headline: expect.stringMatching(/^Expired on June 30, 2021: /),
      facts: { validUntil: "2021-06-30T23:59:59Z" },
    });
    expect(eventSummary(await interactionsOf(api, expired.id))).toEqual(["credential_verified/guest"]);

    await expectError(await pub.post("/api/wallet/verify", { data: { publicId: draft.publicId, triggeredBy: "guest" } }), 404, "not_found");
    await expectError(await pub.post("/api/wallet/verify", { data: { publicId: randomUUID(), triggeredBy: "guest" } }), 404, "not_found");
    await expectError(
      await pub.post("/api/wallet/verify", { data: { publicId: draft.publicId, triggeredBy: "someone" } }),
      400,
      "validation_error",
      {
        paths: ["triggeredBy"],
        exactPaths: true,
      },
    );
    await expectError(
      await pub.post("/api/wallet/verify", {
        data: { publicId: expired.publicId, triggeredBy: "guest", triggeredAt: "2020-01-01T00:00:00Z" },
      }),
      400,
      "validation_error",
      { paths: ["triggeredAt"], exactPaths: true },
    );
    expect(await interactionsOf(api, draft.id)).toEqual([]);
    expect(eventSummary(await interactionsOf(api, expired.id))).toEqual(["credential_verified/guest"]);
  });
});
