// Credential interactions: POST and GET /v1/credential-interactions (the spec's Events section,
// docs/api.md: Every /v1 request, Success statuses and pagination, Interactions; issue 3).
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { createCredential, issue, newGroup, ISO_DATE_TIME, type Interaction } from "../support/credentials";

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

const KEYS = ["credentialId", "eventType", "id", "triggeredAt", "triggeredBy"];

type Page = { data: Interaction[]; pagination: { prev: string | null; next: string | null } };

async function credential(api: APIRequestContext, issued = true) {
  const group = await newGroup(api);
  const c = await createCredential(api, { groupId: group.id, recipient: { name: "Event Person" } });
  return issued ? issue(api, c.id) : c;
}

async function record(api: APIRequestContext, body: Record<string, unknown>): Promise<Interaction> {
  return expectStatus(await api.post("/v1/credential-interactions", { data: body }), 201);
}

async function page(api: APIRequestContext, params: Record<string, string>): Promise<Page> {
  const body: Page = await expectStatus(await api.get(`/v1/credential-interactions?${new URLSearchParams(params)}`), 200);
  expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
  expect(Object.keys(body.pagination).sort()).toEqual(["next", "prev"]);
  return body;
}

/** Every event of the organization, or of one credential, following `next`. */
async function all(api: APIRequestContext, credentialId?: string): Promise<Interaction[]> {
  const items: Interaction[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const p: Page = await page(api, { limit: "100", ...(credentialId ? { credentialId } : {}), ...(cursor ? { cursor } : {}) });
    items.push(...p.data);
    cursor = p.pagination.next;
    if (!cursor) return items;
  }
  throw new Error("pagination did not end");
}

/** Every page of one credential's events, following `next`. */
async function walk(api: APIRequestContext, credentialId: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const p: Page = await page(api, { credentialId, limit: String(limit), ...(cursor ? { cursor } : {}) });
    pages.push(p);
    cursor = p.pagination.next;
  } while (cursor && pages.length < 100);
  return pages;
}

test.describe("POST /v1/credential-interactions", () => {
  test("each of the 13 event types, both triggeredBy values: 201 with every field", async ({ api }) => {
    const c = await credential(api);
    const made: Interaction[] = [];
    for (const [i, eventType] of EVENT_TYPES.entries()) {
      const triggeredBy = i % 2 ? "guest" : "recipient";
      const triggeredAt = new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString();
      const e = await record(api, { credentialId: c.id, eventType, triggeredBy, triggeredAt });
      expect(Object.keys(e).sort()).toEqual(expect.arrayContaining(KEYS));
      expect(e).toMatchObject({ credentialId: c.id, eventType, triggeredBy });
      expect(typeof e.id).toBe("string");
      expect(e.triggeredAt).toMatch(ISO_DATE_TIME);
      expect(Date.parse(e.triggeredAt)).toBe(Date.parse(triggeredAt));
      made.push(e);
    }
    expect(new Set(made.map((e) => e.id)).size).toBe(13);
    // Both actors for the same event type.
    for (const triggeredBy of ["recipient", "guest"]) {
      const e = await record(api, {
        credentialId: c.id,
        eventType: "credential_verified",
        triggeredBy,
        triggeredAt: "2026-02-01T00:00:00Z",
      });
      expect(e.triggeredBy).toBe(triggeredBy);
    }
    const listed = await all(api, c.id);
    expect(listed.length).toBe(15);
    for (const e of made) expect(listed).toContainEqual(e);
  });

  test("triggeredAt: any ISO 8601 date-time with a time zone; the instant is kept", async ({ api }) => {
    const c = await credential(api);
    for (const [given, instant] of [
      ["2026-05-01T12:00:00Z", "2026-05-01T12:00:00.000Z"],
      ["2026-05-01T12:00:00.123Z", "2026-05-01T12:00:00.123Z"],
      ["2026-05-01T14:30:00+02:00", "2026-05-01T12:30:00.000Z"],
      ["2026-05-01T07:00:00.5-05:00", "2026-05-01T12:00:00.500Z"],
      ["2026-05-01T12:00:00.123456789Z", "2026-05-01T12:00:00.123Z"],
      ["1999-12-31T23:59:59Z", "1999-12-31T23:59:59.000Z"],
    ] as const) {
      const e = await record(api, { credentialId: c.id, eventType: "credential_viewed", triggeredBy: "guest", triggeredAt: given });
      expect(new Date(e.triggeredAt).toISOString(), given).toBe(instant);
    }
  });

  test("a draft's events are recorded too (no status rule)", async ({ api }) => {
    const c = await credential(api, false);
    const e = await record(api, {
      credentialId: c.id,
      eventType: "credential_viewed",
      triggeredBy: "recipient",
      triggeredAt: "2026-01-01T00:00:00Z",
    });
    expect(e.credentialId).toBe(c.id);
  });
});

test.describe("POST /v1/credential-interactions: bad input writes nothing", () => {
  async function expectRejected(api: APIRequestContext, body: unknown, paths: string[]) {
    const res = await api.post("/v1/credential-interactions", { data: body as Record<string, unknown> });
    await expectError(res, 400, "validation_error", { paths, exactPaths: true });
  }

  test("triggeredAt without a time zone, a date only, garbage, wrong types → validation_error at triggeredAt", async ({ api }) => {
    const c = await credential(api);
    const base = { credentialId: c.id, eventType: "credential_viewed", triggeredBy: "guest" };
    for (const triggeredAt of [
      "2026-05-01T12:00:00",
      "2026-05-01T12:00:00.000",
      "2026-05-01",
      "2026-05",
      "12:00:00Z",
      "garbage",
      "",
      "2026-02-30T12:00:00Z",
      "2026-13-01T12:00:00Z",
      "2026-05-01T25:00:00Z",
      "2026-05-01T12:00:00 Z",
      "May 1, 2026 12:00 UTC",
      "Fri, 01 May 2026 12:00:00 GMT",
      1777636800000,
      1777636800,
      null,
      true,
      { iso: "2026-05-01T12:00:00Z" },
      ["2026-05-01T12:00:00Z"],
    ]) {
      await expectRejected(api, { ...base, triggeredAt }, ["triggeredAt"]);
    }
    await expectRejected(api, base, ["triggeredAt"]);
    expect(await all(api, c.id)).toEqual([]);
  });

  test("eventType and triggeredBy outside their enums, missing or of the wrong type", async ({ api }) => {
    const c = await credential(api);
    const base = { credentialId: c.id, eventType: "credential_viewed", triggeredBy: "guest", triggeredAt: "2026-05-01T12:00:00Z" };
    for (const eventType of ["credential_liked", "CREDENTIAL_VIEWED", "credential_viewed ", "viewed", "", null, 1, ["credential_viewed"]]) {
      await expectRejected(api, { ...base, eventType }, ["eventType"]);
    }
    for (const triggeredBy of ["issuer", "Recipient", "GUEST", "anonymous", "", null, 0, { by: "guest" }]) {
      await expectRejected(api, { ...base, triggeredBy }, ["triggeredBy"]);
    }
    const { eventType: _e, triggeredBy: _t, ...neither } = base;
    await expectRejected(api, neither, ["eventType", "triggeredBy"]);
    await expectRejected(api, {}, ["credentialId", "eventType", "triggeredBy", "triggeredAt"]);
    await expectRejected(api, { ...base, source: "api" }, ["source"]);
    await expectRejected(api, { ...base, id: "evt_mine" }, ["id"]);
    await expectRejected(api, { ...base, eventType: "nope", triggeredAt: "nope", extra: 1 }, ["eventType", "triggeredAt", "extra"]);
    expect(await all(api, c.id)).toEqual([]);
  });

  test("credentialId unknown, another organization's, deleted, or of the wrong type → validation_error at credentialId (not 404)", async ({
    api,
    newOrg,
    client,
  }) => {
    const mine = await credential(api);
    const other = await client({ token: (await newOrg()).token });
    const theirs = await credential(other);
    const gone = await credential(api);
    expect((await api.delete(`/v1/credentials/${gone.id}`)).status()).toBe(204);
    const base = { eventType: "credential_viewed", triggeredBy: "guest", triggeredAt: "2026-05-01T12:00:00Z" };
    for (const credentialId of [theirs.id, "cred_does_not_exist", gone.id, mine.publicId, "", 42, null, [mine.id]]) {
      await expectRejected(api, { ...base, credentialId }, ["credentialId"]);
    }
    await expectRejected(api, base, ["credentialId"]);
    expect(await all(api)).toEqual([]);
    expect(await all(other)).toEqual([]);
  });

  test("a body that is not a JSON object → 400 invalid_json", async ({ api }) => {
    for (const data of ["[]", '"credential_viewed"', "1", "null", "{nope", ""]) {
      const res = await api.post("/v1/credential-interactions", {
        headers: { "Content-Type": "application/json" },
        data: Buffer.from(data),
      });
      await expectError(res, 400, "invalid_json");
    }
    expect(await all(api)).toEqual([]);
  });
});

test.describe("GET /v1/credential-interactions", () => {
  test("by credentialId, newest triggeredAt first, paginated; prev walks back", async ({ api }) => {
    const a = await credential(api);
    const b = await credential(api);
    // Recorded out of order; three share one instant.
    const offsets = [5, 1, 9, 3, 7, 7, 7, 0, 8, 2, 6];
    const made: Interaction[] = [];
    for (const [i, m] of offsets.entries()) {
      made.push(
        await record(api, {
          credentialId: a.id,
          eventType: EVENT_TYPES[i % EVENT_TYPES.length],
          triggeredBy: i % 2 ? "guest" : "recipient",
          triggeredAt: new Date(Date.UTC(2026, 2, 1, 10, m)).toISOString(),
        }),
      );
    }
    const onB = await record(api, {
      credentialId: b.id,
      eventType: "credential_viewed",
      triggeredBy: "guest",
      triggeredAt: "2030-01-01T00:00:00Z",
    });

    const pages = await walk(api, a.id, 4);
    expect(pages.map((p) => p.data.length)).toEqual([4, 4, 3]);
    expect(pages[0]!.pagination.prev).toBeNull();
    expect(pages.at(-1)!.pagination.next).toBeNull();
    const walked = pages.flatMap((p) => p.data);
    expect(walked.map((e) => e.id).sort()).toEqual(made.map((e) => e.id).sort());
    expect(walked.every((e) => e.credentialId === a.id)).toBe(true);
    const times = walked.map((e) => Date.parse(e.triggeredAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    for (const e of walked) expect(e).toEqual(made.find((m) => m.id === e.id));

    const back = await page(api, { credentialId: a.id, limit: "4", cursor: pages[2]!.pagination.prev! });
    expect(back.data.map((e) => e.id)).toEqual(pages[1]!.data.map((e) => e.id));
    const first = await page(api, { credentialId: a.id, limit: "4", cursor: back.pagination.prev! });
    expect(first.data.map((e) => e.id)).toEqual(pages[0]!.data.map((e) => e.id));

    // Without credentialId: the organization's events, b's newest first.
    const everything = await page(api, { limit: "100" });
    expect(everything.data.length).toBe(12);
    expect(everything.data[0]).toEqual(onB);
    expect((await page(api, { credentialId: b.id })).data).toEqual([onB]);
  });

  test("default limit 20; limit, cursor and unknown parameters are validated", async ({ api }) => {
    const c = await credential(api);
    await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        record(api, {
          credentialId: c.id,
          eventType: "credential_viewed",
          triggeredBy: "guest",
          triggeredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      ),
    );
    const first = await page(api, { credentialId: c.id });
    expect(first.data.length).toBe(20);
    const rest = await page(api, { credentialId: c.id, cursor: first.pagination.next! });
    expect(rest.data.length).toBe(3);
    expect(rest.pagination.next).toBeNull();
    for (const limit of ["0", "101", "-5", "ten", "2.5", ""]) {
      await expectError(await api.get(`/v1/credential-interactions?credentialId=${c.id}&limit=${limit}`), 400, "validation_error", {
        paths: ["limit"],
      });
    }
    for (const cursor of ["garbage", first.pagination.next!.slice(0, -4) + "AAAA"]) {
      await expectError(await api.get(`/v1/credential-interactions?cursor=${encodeURIComponent(cursor)}`), 400, "validation_error", {
        paths: ["cursor"],
      });
    }
    await expectError(await api.get(`/v1/credential-interactions?eventType=credential_viewed`), 400, "validation_error", {
      paths: ["eventType"],
    });
  });

  test("organizations never see each other's events", async ({ api, newOrg, client }) => {
    const mine = await credential(api);
    const e = await record(api, {
      credentialId: mine.id,
      eventType: "credential_downloaded",
      triggeredBy: "recipient",
      triggeredAt: "2026-04-04T04:04:04Z",
    });
    const other = await client({ token: (await newOrg()).token });
    expect(await all(other)).toEqual([]);
    // Asking for this organization's credential by id: rejected like an unknown credential, or an empty page; never its events.
    const res = await other.get(`/v1/credential-interactions?credentialId=${mine.id}`);
    if (res.status() === 200) expect((await res.json()).data).toEqual([]);
    else await expectError(res, 400, "validation_error", { paths: ["credentialId"] });
    const unknown = await api.get("/v1/credential-interactions?credentialId=cred_nope");
    if (unknown.status() === 200) expect((await unknown.json()).data).toEqual([]);
    else await expectError(unknown, 400, "validation_error", { paths: ["credentialId"] });
    expect(await all(api, mine.id)).toEqual([e]);
  });

  test("a deleted credential's events are gone", async ({ api }) => {
    const keep = await credential(api);
    const drop = await credential(api);
    const kept = await record(api, {
      credentialId: keep.id,
      eventType: "credential_viewed",
      triggeredBy: "guest",
      triggeredAt: "2026-01-01T00:00:00Z",
    });
    for (const t of ["2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"]) {
      await record(api, { credentialId: drop.id, eventType: "credential_link_copied", triggeredBy: "recipient", triggeredAt: t });
    }
    expect((await all(api)).length).toBe(3);
    expect((await api.delete(`/v1/credentials/${drop.id}`)).status()).toBe(204);
    expect(await all(api)).toEqual([kept]);
  });
});
