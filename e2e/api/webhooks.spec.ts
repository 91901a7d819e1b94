// Webhook endpoints over the API (docs/api.md, Webhooks): add, list, change, rotate, delete, and every
// bad input answered with a clear error and nothing written. The project's server runs without
// WEBHOOK_ALLOW_PRIVATE, so private targets are refused here as in production; public URLs are written
// as IP literals (no DNS needed). Deliveries are in webhooks-delivery.spec.ts.
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";

const PUBLIC_URL = "https://93.184.215.14/hooks/credentials";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ENDPOINT_KEYS = ["createdAt", "description", "disabledReason", "enabled", "events", "id", "updatedAt", "url"];

async function endpoints(api: APIRequestContext): Promise<{ id: string; url: string; events: string[] }[]> {
  return (await expectStatus(await api.get("/v1/webhooks?limit=100"), 200)).data;
}

test("create shows the secret once; get, list, change, rotate, delete", async ({ api }) => {
  const created = await expectStatus(
    await api.post("/v1/webhooks", {
      data: { url: PUBLIC_URL, events: ["credential.issued", "credential.created", "credential.issued"], description: "LMS sync" },
    }),
    201,
  );
  expect(Object.keys(created).sort()).toEqual([...ENDPOINT_KEYS, "secret"].sort());
  expect(created).toMatchObject({
    url: PUBLIC_URL,
    events: ["credential.created", "credential.issued"],
    description: "LMS sync",
    enabled: true,
    disabledReason: null,
  });
  expect(created.id).toMatch(/^whk_/);
  expect(created.secret).toMatch(SECRET);

  const got = await expectStatus(await api.get(`/v1/webhooks/${created.id}`), 200);
  expect(Object.keys(got).sort()).toEqual(ENDPOINT_KEYS.sort());
  expect(JSON.stringify(got)).not.toContain(created.secret.slice(6, 20));
  const list = await expectStatus(await api.get("/v1/webhooks"), 200);
  expect(list.pagination).toEqual({ prev: null, next: null });
  expect(list.data).toEqual([got]);

  const changed = await expectStatus(
    await api.patch(`/v1/webhooks/${created.id}`, { data: { events: ["*", "group.created"], description: null, enabled: false } }),
    200,
  );
  expect(changed).toMatchObject({ events: ["*"], description: null, enabled: false, disabledReason: null, url: PUBLIC_URL });
  const enabled = await expectStatus(await api.patch(`/v1/webhooks/${created.id}`, { data: { enabled: true } }), 200);
  expect(enabled.enabled).toBe(true);

  const rotated = await expectStatus(await api.post(`/v1/webhooks/${created.id}/rotate-secret`), 200);
  expect(rotated.secret).toMatch(SECRET);
  expect(rotated.secret).not.toBe(created.secret);
  expect(rotated.id).toBe(created.id);

  const log = await expectStatus(await api.get(`/v1/webhooks/${created.id}/deliveries`), 200);
  expect(log).toEqual({ data: [], pagination: { prev: null, next: null } });

  expect((await api.delete(`/v1/webhooks/${created.id}`)).status()).toBe(204);
  for (const res of [
    await api.get(`/v1/webhooks/${created.id}`),
    await api.patch(`/v1/webhooks/${created.id}`, { data: { enabled: false } }),
    await api.post(`/v1/webhooks/${created.id}/rotate-secret`),
    await api.get(`/v1/webhooks/${created.id}/deliveries`),
    await api.post(`/v1/webhooks/${created.id}/deliveries/evt_whatever/retry`),
    await api.delete(`/v1/webhooks/${created.id}`),
  ]) {
    await expectError(res, 404, "not_found");
  }
  expect(await endpoints(api)).toEqual([]);
});

test("bad input: a clear error on the field, and nothing written", async ({ api }) => {
  const kept = await expectStatus(await api.post("/v1/webhooks", { data: { url: PUBLIC_URL, events: ["group.created"] } }), 201);
  const before = await endpoints(api);
  const cases: [string, unknown, string[]][] = [
    ["unknown event", { url: PUBLIC_URL, events: ["credential.exploded"] }, ["events[0]"]],
    ["an unknown event among known ones", { url: PUBLIC_URL, events: ["credential.created", "Credential.Created"] }, ["events[1]"]],
    ["no events", { url: PUBLIC_URL, events: [] }, ["events"]],
    ["events not a list", { url: PUBLIC_URL, events: "*" }, ["events"]],
    ["no url", { events: ["*"] }, ["url"]],
    ["plain http to a public host", { url: "http://93.184.215.14/hook", events: ["*"] }, ["url"]],
    ["not a URL", { url: "hooks.example.com/x", events: ["*"] }, ["url"]],
    ["another scheme", { url: "ftp://93.184.215.14/x", events: ["*"] }, ["url"]],
    ["a password in the URL", { url: "https://user:pw@93.184.215.14/x", events: ["*"] }, ["url"]],
    ["loopback", { url: "http://127.0.0.1:9/hook", events: ["*"] }, ["url"]],
    ["localhost", { url: "https://localhost/hook", events: ["*"] }, ["url"]],
    ["private 10/8", { url: "https://10.1.2.3/hook", events: ["*"] }, ["url"]],
    ["private 192.168/16", { url: "https://192.168.0.10/hook", events: ["*"] }, ["url"]],
    ["link-local (cloud metadata)", { url: "https://169.254.169.254/latest/meta-data", events: ["*"] }, ["url"]],
    ["IPv6 loopback", { url: "https://[::1]/hook", events: ["*"] }, ["url"]],
    ["IPv4-mapped private IPv6", { url: "https://[::ffff:10.0.0.1]/hook", events: ["*"] }, ["url"]],
    ["unknown field", { url: PUBLIC_URL, events: ["*"], secret: "whsec_mine" }, ["secret"]],
    ["description too long", { url: PUBLIC_URL, events: ["*"], description: "x".repeat(501) }, ["description"]],
    ["description on two lines", { url: PUBLIC_URL, events: ["*"], description: "a\nb" }, ["description"]],
  ];
  for (const [label, body, paths] of cases) {
    await test.step(label, async () => {
      await expectError(await api.post("/v1/webhooks", { data: body }), 400, "validation_error", { paths });
    });
  }
  const loopback = await expectError(
    await api.post("/v1/webhooks", { data: { url: "http://127.0.0.1:9/hook", events: ["*"] } }),
    400,
    "validation_error",
  );
  expect(loopback.error.details![0]!.message).toMatch(/loopback/);
  const metadata = await expectError(
    await api.post("/v1/webhooks", { data: { url: "https://169.254.169.254/", events: ["*"] } }),
    400,
    "validation_error",
  );
  expect(metadata.error.details![0]!.message).toMatch(/link-local/);

  const patches: [string, unknown, string[]][] = [
    ["unknown event", { events: ["group.renamed"] }, ["events[0]"]],
    ["private url", { url: "https://172.16.0.1/x" }, ["url"]],
    ["enabled not a boolean", { enabled: "yes" }, ["enabled"]],
    ["unknown field", { secret: "x" }, ["secret"]],
  ];
  for (const [label, body, paths] of patches) {
    await test.step(`PATCH: ${label}`, async () => {
      await expectError(await api.patch(`/v1/webhooks/${kept.id}`, { data: body }), 400, "validation_error", { paths });
    });
  }
  await expectError(await api.get("/v1/webhooks?limit=0"), 400, "validation_error", { paths: ["limit"] });
  await expectError(await api.get("/v1/webhooks?cursor=nonsense"), 400, "validation_error", { paths: ["cursor"] });
  await expectError(await api.post(`/v1/webhooks/${kept.id}/deliveries/evt_never_sent/retry`), 404, "not_found");
  await expectError(await api.post("/v1/webhooks/whk_nope/rotate-secret"), 404, "not_found");
  await expectError(await api.put(`/v1/webhooks/${kept.id}`, { data: {} }), 405, "method_not_allowed");
  expect(await endpoints(api)).toEqual(before);
});

test("another organization's endpoint is not found by any route, and is left as it was", async ({ api, newOrg, client }) => {
  const mine = await expectStatus(await api.post("/v1/webhooks", { data: { url: PUBLIC_URL, events: ["*"] } }), 201);
  const other = await newOrg();
  const theirs = await client({ token: other.token });
  for (const res of [
    await theirs.get(`/v1/webhooks/${mine.id}`),
    await theirs.patch(`/v1/webhooks/${mine.id}`, { data: { enabled: false } }),
    await theirs.post(`/v1/webhooks/${mine.id}/rotate-secret`),
    await theirs.get(`/v1/webhooks/${mine.id}/deliveries`),
    await theirs.post(`/v1/webhooks/${mine.id}/deliveries/evt_x/retry`),
    await theirs.delete(`/v1/webhooks/${mine.id}`),
  ]) {
    await expectError(res, 404, "not_found");
  }
  expect((await expectStatus(await theirs.get("/v1/webhooks"), 200)).data).toEqual([]);
  const after = await expectStatus(await api.get(`/v1/webhooks/${mine.id}`), 200);
  expect(after).toMatchObject({ enabled: true, updatedAt: mine.updatedAt });
});

test("the OpenAPI document lists every webhook route", async ({ api }) => {
  const doc = await expectStatus(await api.get("/v1/openapi.json"), 200);
  expect(Object.keys(doc.paths["/v1/webhooks"]).sort()).toEqual(["get", "post"]);
  expect(Object.keys(doc.paths["/v1/webhooks/{id}"]).sort()).toEqual(["delete", "get", "patch"]);
  expect(Object.keys(doc.paths["/v1/webhooks/{id}/rotate-secret"])).toEqual(["post"]);
  expect(Object.keys(doc.paths["/v1/webhooks/{id}/deliveries"])).toEqual(["get"]);
  expect(Object.keys(doc.paths["/v1/webhooks/{id}/deliveries/{eventId}/retry"])).toEqual(["post"]);
  expect(doc.paths["/v1/webhooks/{id}/deliveries/{eventId}/retry"].post.responses).toHaveProperty("202");
});

test("a retried create with an Idempotency-Key gets the same endpoint and secret, and adds no second one", async ({ api }) => {
  const headers = { "Idempotency-Key": `hook-${Date.now()}` };
  const data = { url: PUBLIC_URL, events: ["credential.issued"] };
  const first = await api.post("/v1/webhooks", { data, headers });
  const created = await expectStatus(first, 201);
  const again = await api.post("/v1/webhooks", { data, headers });
  expect(again.headers()["idempotent-replayed"]).toBe("true");
  expect(await expectStatus(again, 201)).toEqual(created);
  expect((await endpoints(api)).map((e) => e.id)).toEqual([created.id]);
});
