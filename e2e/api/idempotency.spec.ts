// Idempotent retries (docs/api.md, Idempotent retries): a mutating request sent again with its Idempotency-Key
// gets the first answer back and changes nothing; the key with another request is refused.
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { test, expect, SERVICE_VERSION } from "../fixtures";
import { expectError, expectStatus, listAll, type Group } from "../support/api-helpers";
import { allCredentials, createCredential, newGroup, uniqueEmail, type Credential } from "../support/credentials";
import { emlFilesContaining, sleep, waitFor } from "../support/mail";
import { RawConnection } from "../support/raw-http";

test.describe.configure({ timeout: 60_000 });

function newKey(label = "k"): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

const withKey = (key: string) => ({ headers: { "Idempotency-Key": key } });

async function answer(res: APIResponse): Promise<{ status: number; body: string; replayed: string | undefined }> {
  return { status: res.status(), body: await res.text(), replayed: res.headers()["idempotent-replayed"] };
}

async function groupsNamed(api: APIRequestContext, name: string): Promise<Group[]> {
  return (await listAll<Group>(api, "/v1/groups")).filter((g) => g.name === name);
}

test.describe("Idempotency-Key", () => {
  test("create-issue-send sent twice with one key makes one credential and one email, and the retry gets the same answer", async ({
    api,
    server,
  }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("idem-cis");
    const key = newKey("cis");
    const body = { groupId: group.id, recipient: { name: "Retry Once", email } };

    const first = await answer(await api.post("/v1/credentials/create-issue-send", { data: body, ...withKey(key) }));
    expect(first.status, first.body).toBe(201);
    expect(first.replayed).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await api.post("/v1/credentials/create-issue-send", {
      data: { recipient: { email, name: "Retry Once" }, groupId: group.id },
      ...withKey(key),
    });
    const second = await answer(again);
    expect(second).toEqual({ status: 201, body: first.body, replayed: "true" });
    expect(again.headers()["x-request-id"]).toBeTruthy();
    expect(again.headers()["ratelimit-limit"]).toBeTruthy();

    const made = (await allCredentials(api)).filter((c) => c.recipient?.email === email);
    expect(made.map((c) => c.id)).toEqual([(JSON.parse(first.body) as Credential).id]);

    const mailDir = path.join(server.dataDir, "mail");
    await waitFor(`an .eml for ${email}`, () => emlFilesContaining(mailDir, email).length > 0);
    await sleep(1500);
    expect(emlFilesContaining(mailDir, email)).toHaveLength(1);
  });

  test("the key with another body or another path is 422 idempotency_key_reused and does nothing", async ({ api }) => {
    const key = newKey("reuse");
    const name = `Idem ${newKey()}`;
    const design = (await newGroup(api)).designIds[0]!;
    await expectStatus(await api.post("/v1/groups", { data: { name, designIds: [design] }, ...withKey(key) }), 201);

    const otherName = `${name} changed`;
    await expectError(
      await api.post("/v1/groups", { data: { name: otherName, designIds: [design] }, ...withKey(key) }),
      422,
      "idempotency_key_reused",
    );
    expect(await groupsNamed(api, otherName)).toEqual([]);

    const designName = `Design ${newKey()}`;
    await expectError(
      await api.post("/v1/designs", { data: { name: designName, type: "certificate" }, ...withKey(key) }),
      422,
      "idempotency_key_reused",
    );
    expect((await listAll<{ name: string }>(api, "/v1/designs")).filter((d) => d.name === designName)).toEqual([]);
    expect(await groupsNamed(api, name)).toHaveLength(1);
  });

  test("ten concurrent requests with one key: exactly one runs, the others are 409 conflict or replays of its 201", async ({ api }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("idem-race");
    const key = newKey("race");
    const body = { groupId: group.id, recipient: { name: "Race", email } };
    const answers = await Promise.all(
      Array.from({ length: 10 }, async () => answer(await api.post("/v1/credentials/create-issue-send", { data: body, ...withKey(key) }))),
    );
    const ran = answers.filter((a) => a.status === 201 && a.replayed === undefined);
    expect(ran, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
    for (const a of answers) {
      if (a === ran[0]) continue;
      if (a.status === 201) expect(a).toEqual({ ...ran[0], replayed: "true" });
      else {
        expect(a.status, a.body).toBe(409);
        expect(JSON.parse(a.body).error.code).toBe("conflict");
      }
    }
    expect((await allCredentials(api)).filter((c) => c.recipient?.email === email)).toHaveLength(1);
  });

  test("a malformed key is a validation_error on Idempotency-Key and nothing is written", async ({ api, org, server }) => {
    const design = (await newGroup(api)).designIds[0]!;
    const name = `Malformed ${newKey()}`;
    for (const bad of ["", "x".repeat(256), "two words"]) {
      const res = await api.post("/v1/groups", { data: { name, designIds: [design] }, headers: { "Idempotency-Key": bad } });
      await expectError(res, 400, "validation_error", { paths: ["Idempotency-Key"] });
    }
    // Values an HTTP client library will not send: raw bytes on the wire.
    for (const bad of [Buffer.from("kl\u00fcssel", "utf8"), Buffer.from("a\tb", "latin1")]) {
      const connection = await RawConnection.open(server.baseURL);
      try {
        const payload = Buffer.from(JSON.stringify({ name, designIds: [design] }));
        const head = [
          "POST /v1/groups HTTP/1.1",
          "Host: 127.0.0.1",
          `Service-Version: ${SERVICE_VERSION}`,
          "X-Forwarded-Proto: https",
          `Authorization: Bearer ${org.token}`,
          "Content-Type: application/json",
          `Content-Length: ${payload.length}`,
          "Connection: close",
        ].join("\r\n");
        connection.write(Buffer.concat([Buffer.from(`${head}\r\nIdempotency-Key: `), bad, Buffer.from("\r\n\r\n"), payload]));
        const res = await connection.readResponse(10_000);
        if (res === "closed") throw new Error("connection closed without an answer");
        expect(res.status, res.body.toString()).toBe(400);
        const error = JSON.parse(res.body.toString("utf8")).error as { code: string; details: { path: string }[] };
        expect(error.code).toBe("validation_error");
        expect(error.details.map((d) => d.path)).toContain("Idempotency-Key");
      } finally {
        connection.close();
      }
    }
    expect(await groupsNamed(api, name)).toEqual([]);
  });

  test("a 4xx answer is kept and replayed with the header, like any answer under 500", async ({ api }) => {
    const key = newKey("invalid");
    const first = await answer(await api.post("/v1/groups", { data: { name: "" }, ...withKey(key) }));
    expect(first.status).toBe(400);
    expect(JSON.parse(first.body).error.code).toBe("validation_error");
    expect(await answer(await api.post("/v1/groups", { data: { name: "" }, ...withKey(key) }))).toEqual({ ...first, replayed: "true" });
  });

  test("GET ignores the header; another organization may use the same key", async ({ api, client, newOrg }) => {
    const key = newKey("shared");
    const design = (await newGroup(api)).designIds[0]!;
    const created: Group = await expectStatus(
      await api.post("/v1/groups", { data: { name: `Org A ${key}`, designIds: [design] }, ...withKey(key) }),
      201,
    );

    const got = await api.get(`/v1/groups/${created.id}`, withKey(key));
    expect(got.status()).toBe(200);
    expect(got.headers()["idempotent-replayed"]).toBeUndefined();

    const other = await client({ token: (await newOrg()).token });
    const otherDesign = (await newGroup(other)).designIds[0]!;
    const res = await other.post("/v1/groups", { data: { name: `Org B ${key}`, designIds: [otherDesign] }, ...withKey(key) });
    const theirs: Group = await expectStatus(res, 201);
    expect(res.headers()["idempotent-replayed"]).toBeUndefined();
    expect(theirs.id).not.toBe(created.id);
  });

  test("PATCH and DELETE replay their first answer", async ({ api }) => {
    const group = await newGroup(api);
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Patch Me" } });

    const patchKey = newKey("patch");
    const patched = await answer(
      await api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.step": "one" } }, ...withKey(patchKey) }),
    );
    expect(patched.status, patched.body).toBe(200);
    // Changed by another request since: the retry still answers what the first request did, and changes nothing.
    await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.step": "two" } } }), 200);
    const retried = await answer(
      await api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.step": "one" } }, ...withKey(patchKey) }),
    );
    expect(retried).toEqual({ ...patched, replayed: "true" });
    const now: Credential = await expectStatus(await api.get(`/v1/credentials/${c.id}`), 200);
    expect(now.customAttributes).toMatchObject({ "custom.step": "two" });

    const deleteKey = newKey("delete");
    const deleted = await api.delete(`/v1/credentials/${c.id}`, withKey(deleteKey));
    expect(deleted.status()).toBe(204);
    const again = await api.delete(`/v1/credentials/${c.id}`, withKey(deleteKey));
    expect(again.status()).toBe(204);
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    // Without the key the credential is simply gone.
    await expectError(await api.delete(`/v1/credentials/${c.id}`), 404, "not_found");
  });
});

test("the OpenAPI document declares Idempotency-Key on every POST, PATCH and DELETE, and on nothing else", async ({ api }) => {
  type Op = { parameters?: { $ref?: string }[]; responses: Record<string, { description?: string }> };
  const doc = (await expectStatus(await api.get("/v1/openapi.json"), 200)) as {
    paths: Record<string, Record<string, Op>>;
    components: { parameters: Record<string, { name: string; in: string }> };
  };
  expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header" });
  let mutating = 0;
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const declares = (op.parameters ?? []).some((x) => x.$ref === "#/components/parameters/IdempotencyKey");
      const takesKey = ["post", "patch", "delete"].includes(method);
      expect(declares, `${method} ${p}`).toBe(takesKey);
      if (takesKey) {
        mutating++;
        expect(op.responses["422"]?.description ?? "", `${method} ${p}`).toContain("idempotency_key_reused");
      }
    }
  }
  expect(mutating).toBeGreaterThan(5);
});
