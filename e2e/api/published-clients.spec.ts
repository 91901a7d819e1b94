// Replays the request shapes typical published clients of the hosted API send (workflow-automation
// connectors, LMS plug-ins, agent tool servers; docs/api.md, Clients written for the hosted API): they send `Certifier-Version`,
// never `Service-Version`, a JSON body with `Content-Type: application/json`, and read
// GET /v1/attributes as a bare array. Only the base URL changes. The webhook-triggered connector's shape
// (subscribe with Certifier-Version, receive a signed credential.issued, unsubscribe) is replayed in
// webhooks-delivery.spec.ts, which runs a server allowed to call a receiver on this machine.
import type { APIRequestContext } from "@playwright/test";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { allCredentials, newGroup, uniqueEmail } from "../support/credentials";

async function connector(client: (o?: object) => Promise<APIRequestContext>, token: string): Promise<APIRequestContext> {
  return client({
    version: null,
    headers: {
      Authorization: `Bearer ${token}`,
      "Certifier-Version": SERVICE_VERSION,
      Accept: "application/json",
      "Content-Type": "application/json",
      "User-Agent": "certifier-connector/2.3.1",
    },
  });
}

test("a connector's whole flow with Certifier-Version only", async ({ client, org, api }) => {
  const c = await connector(client, org.token);
  // Setup the issuer did in the dashboard: a design.
  const design = await expectStatus(await api.post("/v1/designs", { data: { name: "Certificate", type: "certificate" } }), 201);

  // "Create group" action, then the group dropdown: list groups, newest first, `data` + `pagination`.
  const group = await expectStatus(await c.post("/v1/groups", { data: { name: "Course A", certificateDesignId: design.id } }), 201);
  const groups = await expectStatus(await c.get("/v1/groups?limit=100"), 200);
  expect(groups.data.map((g: { id: string; name: string }) => [g.id, g.name])).toContainEqual([group.id, "Course A"]);
  expect(groups.pagination).toHaveProperty("next");

  // The attribute mapping step reads the attributes as a bare array.
  const attributes = await expectStatus(await c.get("/v1/attributes"), 200);
  expect(Array.isArray(attributes)).toBe(true);
  expect(attributes[0]).toEqual({ tag: "recipient.name", name: expect.any(String), isDefault: true });

  // "Create, issue and send a credential" action.
  const credential = await expectStatus(
    await c.post("/v1/credentials/create-issue-send", {
      data: {
        groupId: group.id,
        recipient: { name: "Grace Hopper", email: `grace.${Date.now()}@example.com` },
        issueDate: new Date().toISOString().slice(0, 10),
        customAttributes: { "custom.score": "98" },
      },
    }),
    201,
  );
  expect(credential.status).toBe("issued");
  // The custom attribute the connector sent is now an attribute the mapping step offers.
  const after = await expectStatus(await c.get("/v1/attributes"), 200);
  expect(after).toContainEqual({ tag: "custom.score", name: "score", isDefault: false });

  // "Get credential" and "Find credentials" (search by recipient email, then by group).
  const got = await expectStatus(await c.get(`/v1/credentials/${credential.id}`), 200);
  expect(got.id).toBe(credential.id);
  const byEmail = await expectStatus(
    await c.post("/v1/credentials/search", {
      data: { filter: { recipient: { email: { equals: credential.recipient.email } } }, limit: 10 },
    }),
    200,
  );
  expect(byEmail.data.map((x: { id: string }) => x.id)).toEqual([credential.id]);
  const byGroup = await expectStatus(await c.post("/v1/credentials/search", { data: { filter: { groupId: group.id } } }), 200);
  expect(byGroup.data).toHaveLength(1);

  // "Delete group": refused while used, allowed for an unused one.
  const used = await c.delete(`/v1/groups/${group.id}`);
  expect(used.status()).toBe(409);
  expect((await used.json()).error.message).toMatch(/^1 credential uses this group/);
  const spare = await expectStatus(await c.post("/v1/groups", { data: { name: "Spare", designIds: [design.id] } }), 201);
  expect((await c.delete(`/v1/groups/${spare.id}`)).status()).toBe(204);
  expect((await c.get(`/v1/groups/${spare.id}`)).status()).toBe(404);
});

test("the LMS plug-in's `recipient: {id: null, ...}` creates on both create routes; any other id is refused, nothing written", async ({
  client,
  org,
  api,
}) => {
  const c = await connector(client, org.token);
  const group = await newGroup(api);
  const email = uniqueEmail("lms");
  const draft = await expectStatus(
    await c.post("/v1/credentials", { data: { groupId: group.id, recipient: { id: null, name: "Lin Learner", email } } }),
    201,
  );
  expect(draft.status).toBe("draft");
  expect(draft.recipient).toEqual({ id: expect.any(String), name: "Lin Learner", email });
  // The null is ignored: the recipient is still found again by its email.
  const sent = await expectStatus(
    await c.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { id: null, name: "Lin Learner", email } } }),
    201,
  );
  expect(sent.status).toBe("issued");
  expect(sent.recipient.id).toBe(draft.recipient.id);
  // Without an email too.
  const nameOnly = await expectStatus(
    await c.post("/v1/credentials", { data: { groupId: group.id, recipient: { id: null, name: "No Mail" } } }),
    201,
  );
  expect(nameOnly.recipient).toBeNull();

  const before = (await allCredentials(api)).map((x) => x.id).sort();
  for (const path of ["/v1/credentials", "/v1/credentials/create-issue-send"]) {
    for (const id of [draft.recipient.id, "", 42, 0, false, {}, { id: draft.recipient.id }, [null]]) {
      await expectError(
        await c.post(path, { data: { groupId: group.id, recipient: { id, name: "Lin Learner", email } } }),
        400,
        "validation_error",
        {
          paths: ["recipient.id"],
          exactPaths: true,
        },
      );
    }
  }
  expect((await allCredentials(api)).map((x) => x.id).sort()).toEqual(before);

  // Other bodies keep refusing fields they do not know, null or not.
  await expectError(await c.post("/v1/groups", { data: { id: null, name: "G", designIds: group.designIds } }), 400, "validation_error", {
    paths: ["id"],
    exactPaths: true,
  });
  await expectError(
    await c.patch(`/v1/credentials/${draft.id}`, { data: { recipient: { id: null, name: "X" } } }),
    400,
    "validation_error",
    {
      paths: ["recipient.id"],
      exactPaths: true,
    },
  );
  await expectError(
    await c.post("/v1/credentials", { data: { groupId: group.id, recipient: { id: null, name: "A", phone: null } } }),
    400,
    "validation_error",
    {
      paths: ["recipient.phone"],
      exactPaths: true,
    },
  );
  expect((await allCredentials(api)).map((x) => x.id).sort()).toEqual(before);
});
