// The request checks 10 (409 conflict) and 11 (402 payment_required) of docs/api.md, and state changes under
// concurrent writers. They need the credentials API; without POST /v1/credentials they skip themselves.
import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { spawn } from "node:child_process";
import path from "node:path";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus } from "../support/api-helpers";
import { ROOT } from "../support/servers";
import { createOrgs } from "../support/state";

async function credentialsApiExists(api: APIRequestContext): Promise<boolean> {
  const res = await api.post("/v1/credentials", { data: {} });
  if (res.status() !== 404) return true;
  const body = await res.json().catch(() => null);
  return !(body?.error?.code === "not_found" && /endpoint/i.test(body?.error?.message ?? ""));
}

async function draft(api: APIRequestContext, groupId: string, recipient: Record<string, string>) {
  return expectStatus(await api.post("/v1/credentials", { data: { groupId, recipient } }), 201);
}

test.describe("409 conflict and 402 payment_required", () => {
  test.beforeEach(async ({ api }) => {
    test.skip(!(await credentialsApiExists(api)), "the credentials API (POST /v1/credentials) does not exist yet");
  });

  test("issuing a non-draft → 409 conflict, nothing changed", async ({ api }) => {
    const group = await createGroup(api, { designIds: [(await createDesign(api, "certificate")).id] });
    const credential = await draft(api, group.id, { name: "Ada Lovelace", email: "ada@example.com" });
    expect(credential.status).toBe("draft");
    const issued = await expectStatus(await api.post(`/v1/credentials/${credential.id}/issue`), 200);
    expect(issued.status).toBe("issued");
    await expectError(await api.post(`/v1/credentials/${credential.id}/issue`), 409, "conflict");
    expect(await expectStatus(await api.get(`/v1/credentials/${credential.id}`), 200)).toEqual(issued);
  });

  test("sending a draft, or a credential without recipient email → 409 conflict", async ({ api }) => {
    const group = await createGroup(api, { designIds: [(await createDesign(api, "certificate")).id] });
    const pending = await draft(api, group.id, { name: "Grace Hopper", email: "grace@example.com" });
    await expectError(await api.post(`/v1/credentials/${pending.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict");
    expect(await expectStatus(await api.get(`/v1/credentials/${pending.id}`), 200)).toEqual(pending);

    const noEmail = await draft(api, group.id, { name: "No Mail" });
    const issued = await expectStatus(await api.post(`/v1/credentials/${noEmail.id}/issue`), 200);
    await expectError(await api.post(`/v1/credentials/${noEmail.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict");
    expect(await expectStatus(await api.get(`/v1/credentials/${noEmail.id}`), 200)).toEqual(issued);
  });

  test("a free organization over its monthly quota → 402 payment_required; premium is not limited", async ({
    scratchDatabase,
    startServer,
    client,
    server,
  }) => {
    // Its own database: only this server writes to it (see the concurrency test below for why).
    const databaseUrl = await scratchDatabase();
    const [free, premium] = await Promise.all([
      createOrgs({ databaseUrl, dataDir: server.dataDir }, `quota-${randomBytes(3).toString("hex")}`, 1, 0),
      createOrgs({ databaseUrl, dataDir: server.dataDir }, `quotap-${randomBytes(3).toString("hex")}`, 0, 1),
    ]);
    const quotaServer = await startServer({ DATABASE_URL: databaseUrl, FREE_PLAN_MONTHLY_ISSUES: "1" });
    const freeApi = await client({ baseURL: quotaServer.baseURL, token: free[0]!.token });
    const group = await createGroup(freeApi, { designIds: [(await createDesign(freeApi, "certificate")).id] });
    const first = await draft(freeApi, group.id, { name: "One" });
    const second = await draft(freeApi, group.id, { name: "Two" });
    await expectStatus(await freeApi.post(`/v1/credentials/${first.id}/issue`), 200);
    await expectError(await freeApi.post(`/v1/credentials/${second.id}/issue`), 402, "payment_required");
    expect((await expectStatus(await freeApi.get(`/v1/credentials/${second.id}`), 200)).status).toBe("draft");

    const premiumApi = await client({ baseURL: quotaServer.baseURL, token: premium[0]!.token });
    const pGroup = await createGroup(premiumApi, { designIds: [(await createDesign(premiumApi, "badge")).id] });
    for (const name of ["P1", "P2"]) {
      const c = await draft(premiumApi, pGroup.id, { name });
      await expectStatus(await premiumApi.post(`/v1/credentials/${c.id}/issue`), 200);
    }
  });

  test("issuing while another process writes to the same database never answers 500", async ({
    scratchDatabase,
    startServer,
    client,
    server,
  }) => {
    // Operators run the CLI (org create, token create/revoke) against the database a live server uses;
    // a write from another process must not make the server's transactions fail. A helper process
    // plays that other process, renaming organization `demo` back to back while credentials are issued.
    // On a database of its own, so that the other tests' transactions are not disturbed.
    const databaseUrl = await scratchDatabase();
    const [org] = await createOrgs({ databaseUrl, dataDir: server.dataDir }, `conc-${randomBytes(3).toString("hex")}`, 0, 1);
    const own = await startServer({ DATABASE_URL: databaseUrl });
    const api = await client({ baseURL: own.baseURL, token: org!.token });
    const group = await createGroup(api, { designIds: [(await createDesign(api, "certificate")).id] });
    const drafts = await Promise.all(Array.from({ length: 12 }, (_, i) => draft(api, group.id, { name: `Concurrent ${i}` })));
    const writer = await startConcurrentWriter(databaseUrl);
    let outcomes: string[];
    try {
      const responses = await Promise.all(drafts.map((d) => api.post(`/v1/credentials/${d.id}/issue`)));
      outcomes = await Promise.all(responses.map(async (r) => `${r.status()} ${r.status() === 200 ? "" : await r.text()}`));
    } finally {
      expect(await writer.stop(), "the other process wrote meanwhile").toBeGreaterThan(1);
    }
    expect(
      outcomes.filter((o) => !o.startsWith("200")),
      "failed issues",
    ).toEqual([]);
  });
});

/** Starts e2e/support/concurrent-writer.mjs (another process committing small writes) and waits until it writes. */
async function startConcurrentWriter(databaseUrl: string): Promise<{ stop: () => Promise<number> }> {
  const child = spawn(process.execPath, [path.join(ROOT, "e2e/support/concurrent-writer.mjs"), databaseUrl], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("ready\n")) resolve();
    });
    child.on("error", reject);
    void closed.then((code) => reject(new Error(`concurrent writer exited early (${code}): ${out}\n${err}`)));
  });
  return {
    stop: async () => {
      child.stdin.end();
      const code = await closed;
      const writes = Number(out.trim().split("\n").at(-1));
      if (code !== 0 || !Number.isFinite(writes)) throw new Error(`concurrent writer failed (exit ${code}): ${out}\n${err}`);
      return writes;
    },
  };
}
