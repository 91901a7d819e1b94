// Credentials: lifecycle, recipients, expiry, custom attributes, delete, previews, organization
// isolation, list pagination and concurrency (docs/api.md: Every /v1 request, Success statuses and pagination, Credentials, Previews; issue 3).
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus, listAll } from "../support/api-helpers";
import {
  addDays,
  allCredentials,
  createCredential,
  expectCredentialShape,
  getCredential,
  issue,
  newDataDir,
  newGroup,
  todayUtc,
  uniqueEmail,
  type Credential,
  type Interaction,
} from "../support/credentials";
import { emlFilesContaining, sleep, waitFor } from "../support/mail";
import { createOrgs } from "../support/state";

// Many requests per test, and servers that share the machine with other runs: more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

type Page = { data: Credential[]; pagination: { prev: string | null; next: string | null } };

async function page(api: APIRequestContext, params: Record<string, string> = {}): Promise<Page> {
  const body: Page = await expectStatus(await api.get(`/v1/credentials?${new URLSearchParams(params)}`), 200);
  expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
  expect(Object.keys(body.pagination).sort()).toEqual(["next", "prev"]);
  return body;
}

async function listed(api: APIRequestContext, id: string): Promise<Credential | undefined> {
  return (await allCredentials(api)).find((c) => c.id === id);
}

const send = (api: APIRequestContext, id: string) => api.post(`/v1/credentials/${id}/send`, { data: { deliveryMethod: "email" } });

test.describe("lifecycle", () => {
  test("draft → issue → send: 201 draft with every field, then issued; get and list agree", async ({ api }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("ada");
    const created = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Ada Lovelace", email },
      customAttributes: { "custom.course": "Analytical Engines", "custom.grade": "A" },
    });
    expectCredentialShape(created);
    expect(created).toMatchObject({
      groupId: group.id,
      status: "draft",
      recipient: { id: expect.any(String), name: "Ada Lovelace", email },
      issueDate: todayUtc(),
      expiryDate: null,
      attributes: { "recipient.name": "Ada Lovelace" },
      customAttributes: { "custom.course": "Analytical Engines", "custom.grade": "A" },
    });
    expect(await getCredential(api, created.id)).toEqual(created);
    expect(await listed(api, created.id)).toEqual(created);

    const issued = await issue(api, created.id);
    expectCredentialShape(issued);
    expect(issued).toMatchObject({
      id: created.id,
      publicId: created.publicId,
      status: "issued",
      recipient: created.recipient,
      issueDate: created.issueDate,
    });
    expect(await getCredential(api, created.id)).toEqual(issued);
    expect(await listed(api, created.id)).toEqual(issued);

    const sent = await expectStatus(await send(api, created.id), 200);
    expectCredentialShape(sent);
    expect(sent.status).toBe("issued");
    expect(sent.id).toBe(created.id);
    expect((await getCredential(api, created.id)).status).toBe("issued");
  });

  test("no email: recipient null, the name in attributes; every field present, null where empty", async ({ api }) => {
    const group = await newGroup(api);
    const res = await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Grace Hopper" } } });
    const created: Credential = await expectStatus(res, 201);
    expect(Object.keys(created)).toEqual(expect.arrayContaining(["recipient", "expiryDate", "customAttributes", "attributes"]));
    expectCredentialShape(created);
    expect(created.recipient).toBeNull();
    expect(created.expiryDate).toBeNull();
    expect(created.customAttributes).toEqual({});
    expect(created.attributes["recipient.name"]).toBe("Grace Hopper");
    expect(created.status).toBe("draft");
    const issued = await issue(api, created.id);
    expect(issued.recipient).toBeNull();
    expect(issued.attributes["recipient.name"]).toBe("Grace Hopper");
    expect(await getCredential(api, created.id)).toEqual(issued);
  });

  test("recipient name is trimmed; 200 characters and a leap day are accepted", async ({ api }) => {
    const group = await newGroup(api);
    const trimmed = await createCredential(api, { groupId: group.id, recipient: { name: "  Alan Turing \t", email: uniqueEmail() } });
    expect(trimmed.attributes["recipient.name"]).toBe("Alan Turing");
    expect(trimmed.recipient?.name).toBe("Alan Turing");
    const long = "n".repeat(200);
    const c200 = await createCredential(api, { groupId: group.id, recipient: { name: ` ${long} ` } });
    expect(c200.attributes["recipient.name"]).toBe(long);
    const unicode = await createCredential(api, { groupId: group.id, recipient: { name: "Zoë Ågren 李小龍" } });
    expect(unicode.attributes["recipient.name"]).toBe("Zoë Ågren 李小龍");
    const leap = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Leap" },
      issueDate: "2024-02-29",
      expiryDate: "2028-02-29",
    });
    expect([leap.issueDate, leap.expiryDate]).toEqual(["2024-02-29", "2028-02-29"]);
    const sameDay = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Same day" },
      issueDate: "2026-03-01",
      expiryDate: "2026-03-01",
    });
    expect([sameDay.issueDate, sameDay.expiryDate]).toEqual(["2026-03-01", "2026-03-01"]);
  });

  test("create-issue-send: 201 issued in one call, readable after; without email it is issued too", async ({ api }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("cis");
    const res = await api.post("/v1/credentials/create-issue-send", {
      data: { groupId: group.id, recipient: { name: "Katherine Johnson", email }, customAttributes: { "custom.mission": "Apollo 11" } },
    });
    const c: Credential = await expectStatus(res, 201);
    expectCredentialShape(c);
    expect(c).toMatchObject({
      status: "issued",
      groupId: group.id,
      recipient: { name: "Katherine Johnson", email },
      issueDate: todayUtc(),
      attributes: { "recipient.name": "Katherine Johnson" },
      customAttributes: { "custom.mission": "Apollo 11" },
    });
    expect(await getCredential(api, c.id)).toEqual(c);
    await expectError(await api.post(`/v1/credentials/${c.id}/issue`), 409, "conflict");

    const noEmail: Credential = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { name: "Dorothy Vaughan" } } }),
      201,
    );
    expect(noEmail.status).toBe("issued");
    expect(noEmail.recipient).toBeNull();
    expect(noEmail.attributes["recipient.name"]).toBe("Dorothy Vaughan");
  });

  test("a future issueDate: issue and create-issue-send give scheduled; scheduled cannot be sent or issued again", async ({ api }) => {
    const group = await newGroup(api);
    const future = addDays(todayUtc(), 10);
    const draft = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Future", email: uniqueEmail() },
      issueDate: future,
    });
    expect(draft.status).toBe("draft");
    const scheduled = await issue(api, draft.id);
    expect(scheduled.status).toBe("scheduled");
    expect(scheduled.issueDate).toBe(future);
    expect(await getCredential(api, draft.id)).toEqual(scheduled);
    expect((await listed(api, draft.id))?.status).toBe("scheduled");
    await expectError(await api.post(`/v1/credentials/${draft.id}/issue`), 409, "conflict");
    await expectError(await send(api, draft.id), 409, "conflict");
    expect(await getCredential(api, draft.id)).toEqual(scheduled);

    const cis: Credential = await expectStatus(
      await api.post("/v1/credentials/create-issue-send", {
        data: { groupId: group.id, recipient: { name: "Later", email: uniqueEmail() }, issueDate: future },
      }),
      201,
    );
    expect(cis.status).toBe("scheduled");
    expect(cis.issueDate).toBe(future);
  });

  test("issued with an expiryDate before today reads as expired in get and list; a draft stays draft", async ({ api }) => {
    const group = await newGroup(api);
    const draft = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Old Timer", email: uniqueEmail() },
      issueDate: "2020-01-01",
      expiryDate: addDays(todayUtc(), -1),
    });
    expect(draft.status).toBe("draft");
    expect((await getCredential(api, draft.id)).status).toBe("draft");
    const issued = await expectStatus(await api.post(`/v1/credentials/${draft.id}/issue`), 200);
    expect(["issued", "expired"]).toContain(issued.status);
    const read = await getCredential(api, draft.id);
    expect(read.status).toBe("expired");
    expect((await listed(api, draft.id))?.status).toBe("expired");
    // Only issued credentials can be sent or issued.
    await expectError(await send(api, draft.id), 409, "conflict");
    await expectError(await api.post(`/v1/credentials/${draft.id}/issue`), 409, "conflict");

    // Expiring today is not expired yet; a past issue date without expiry is plainly issued.
    const today = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Today" },
      issueDate: "2020-01-01",
      expiryDate: todayUtc(),
    });
    expect((await issue(api, today.id)).status).toBe("issued");
    expect((await getCredential(api, today.id)).status).toBe("issued");
    const past = await createCredential(api, { groupId: group.id, recipient: { name: "Past" }, issueDate: "2019-05-05" });
    expect((await issue(api, past.id)).status).toBe("issued");
  });

  test("PATCH updates dates and keeps the rest; updatedAt moves, createdAt does not", async ({ api }) => {
    const group = await newGroup(api);
    const c = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Patchy", email: uniqueEmail() },
      customAttributes: { "custom.a": "1" },
    });
    await sleep(5);
    const patched: Credential = await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, { data: { issueDate: "2026-06-01", expiryDate: "2027-06-01" } }),
      200,
    );
    expectCredentialShape(patched);
    expect(patched).toMatchObject({
      issueDate: "2026-06-01",
      expiryDate: "2027-06-01",
      recipient: c.recipient,
      customAttributes: c.customAttributes,
      status: "draft",
    });
    expect(patched.createdAt).toBe(c.createdAt);
    expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
    expect(await getCredential(api, c.id)).toEqual(patched);
    // An empty PATCH changes nothing visible.
    const same: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: {} }), 200);
    expect({ ...same, updatedAt: "" }).toEqual({ ...patched, updatedAt: "" });
  });
});

test.describe("recipients", () => {
  test("found again by email, case-insensitively, within the organization; each credential keeps its own name", async ({
    api,
    newOrg,
    client,
  }) => {
    const group = await newGroup(api);
    const local = `Mixed.Case-${randomBytes(3).toString("hex")}`;
    const a = await createCredential(api, { groupId: group.id, recipient: { name: "Ada Lovelace", email: `${local}@Example.COM` } });
    const b = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Ada L.", email: `${local.toLowerCase()}@example.com` },
    });
    const c = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "A. Lovelace", email: `${local.toUpperCase()}@EXAMPLE.COM` },
    });
    expect(a.recipient?.id).toEqual(expect.any(String));
    expect(b.recipient?.id).toBe(a.recipient!.id);
    expect(c.recipient?.id).toBe(a.recipient!.id);
    expect(a.attributes["recipient.name"]).toBe("Ada Lovelace");
    expect(b.attributes["recipient.name"]).toBe("Ada L.");
    expect(c.attributes["recipient.name"]).toBe("A. Lovelace");
    expect(b.recipient!.email.toLowerCase()).toBe(`${local}@example.com`.toLowerCase());
    const other = await createCredential(api, { groupId: group.id, recipient: { name: "Someone else", email: uniqueEmail() } });
    expect(other.recipient!.id).not.toBe(a.recipient!.id);

    // Another organization with the same address has its own recipient.
    const theirs = await client({ token: (await newOrg()).token });
    const theirGroup = await newGroup(theirs);
    const t = await createCredential(theirs, { groupId: theirGroup.id, recipient: { name: "Ada", email: `${local}@example.com` } });
    expect(t.recipient!.id).not.toBe(a.recipient!.id);
  });

  test("the same new email created in parallel gives one recipient, no errors", async ({ api }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("par");
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.post("/v1/credentials", {
          data: { groupId: group.id, recipient: { name: `P${i}`, email: i % 2 ? email.toUpperCase() : email } },
        }),
      ),
    );
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status(), body: await r.json() })));
    expect(
      bodies.filter((b) => b.status !== 201),
      JSON.stringify(bodies.filter((b) => b.status !== 201)),
    ).toEqual([]);
    expect(new Set(bodies.map((b) => b.body.recipient.id)).size).toBe(1);
  });

  test("PATCH recipient with its current id renames it (and the credential's recipient.name); email can change", async ({ api }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("ren");
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Old Name", email } });
    const sibling = await createCredential(api, { groupId: group.id, recipient: { name: "Old Name", email } });
    expect(sibling.recipient!.id).toBe(c.recipient!.id);

    const renamed: Credential = await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, { data: { recipient: { id: c.recipient!.id, name: "  New Name  " } } }),
      200,
    );
    expect(renamed.recipient).toEqual({ id: c.recipient!.id, name: "New Name", email: c.recipient!.email });
    expect(renamed.attributes["recipient.name"]).toBe("New Name");
    expect(await getCredential(api, c.id)).toEqual(renamed);
    // The recipient is shared: the other credential shows its new name.
    expect((await getCredential(api, sibling.id)).recipient?.name).toBe("New Name");

    const newEmail = uniqueEmail("moved");
    const moved: Credential = await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, { data: { recipient: { id: c.recipient!.id, name: "New Name", email: newEmail } } }),
      200,
    );
    expect(moved.recipient).toEqual({ id: c.recipient!.id, name: "New Name", email: newEmail });
    // Found again by the new address.
    const again = await createCredential(api, { groupId: group.id, recipient: { name: "X", email: newEmail.toUpperCase() } });
    expect(again.recipient!.id).toBe(c.recipient!.id);
  });
});

test.describe("expiry from the group's expiryPeriod", () => {
  const cases: { period: { amount: number; unit: string }; issueDate: string; expiry: string }[] = [
    { period: { amount: 1, unit: "month" }, issueDate: "2026-01-31", expiry: "2026-02-28" },
    { period: { amount: 1, unit: "month" }, issueDate: "2028-01-31", expiry: "2028-02-29" },
    { period: { amount: 1, unit: "month" }, issueDate: "2026-03-31", expiry: "2026-04-30" },
    { period: { amount: 1, unit: "month" }, issueDate: "2026-12-15", expiry: "2027-01-15" },
    { period: { amount: 13, unit: "month" }, issueDate: "2026-01-31", expiry: "2027-02-28" },
    { period: { amount: 1, unit: "year" }, issueDate: "2028-02-29", expiry: "2029-02-28" },
    { period: { amount: 2, unit: "year" }, issueDate: "2026-06-30", expiry: "2028-06-30" },
    { period: { amount: 1, unit: "day" }, issueDate: "2026-12-31", expiry: "2027-01-01" },
    { period: { amount: 30, unit: "day" }, issueDate: "2026-02-01", expiry: "2026-03-03" },
  ];

  test("issueDate + period, month ends clamped (2026-01-31 + 1 month = 2026-02-28)", async ({ api }) => {
    const groups = new Map<string, string>();
    for (const c of cases) {
      const key = `${c.period.amount}${c.period.unit}`;
      if (!groups.has(key)) {
        const g = await newGroup(api, { expiryPeriod: c.period });
        expect(g.expiryPeriod).toEqual(c.period);
        groups.set(key, g.id);
      }
      const cred = await createCredential(api, { groupId: groups.get(key)!, recipient: { name: "E" }, issueDate: c.issueDate });
      expect(cred.expiryDate, `${c.issueDate} + ${key}`).toBe(c.expiry);
      // create-issue-send applies the same default
      const cis: Credential = await expectStatus(
        await api.post("/v1/credentials/create-issue-send", {
          data: { groupId: groups.get(key)!, recipient: { name: "E" }, issueDate: c.issueDate },
        }),
        201,
      );
      expect(cis.expiryDate, `create-issue-send ${c.issueDate} + ${key}`).toBe(c.expiry);
    }
  });

  test("issueDate defaults to today (UTC) and the expiry follows it; a group without a period gives null", async ({ api }) => {
    const g = await newGroup(api, { expiryPeriod: { amount: 10, unit: "day" } });
    const c = await createCredential(api, { groupId: g.id, recipient: { name: "Now" } });
    expect(c.issueDate).toBe(todayUtc());
    expect(c.expiryDate).toBe(addDays(todayUtc(), 10));
    const none = await newGroup(api, { expiryPeriod: null });
    expect((await createCredential(api, { groupId: none.id, recipient: { name: "Never" } })).expiryDate).toBeNull();
  });

  test("a defaulted expiryDate follows a PATCHed issueDate (month ends clamped)", async ({ api }) => {
    const g = await newGroup(api, { expiryPeriod: { amount: 1, unit: "month" } });
    const c = await createCredential(api, { groupId: g.id, recipient: { name: "Follow" }, issueDate: "2026-03-15" });
    expect(c.expiryDate).toBe("2026-04-15");
    const moved: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { issueDate: "2026-01-31" } }), 200);
    expect([moved.issueDate, moved.expiryDate]).toEqual(["2026-01-31", "2026-02-28"]);
  });

  test("an explicit expiryDate wins; PATCH expiryDate: null re-applies the group's current setting", async ({ api }) => {
    const g = await newGroup(api, { expiryPeriod: { amount: 1, unit: "year" } });
    const c = await createCredential(api, {
      groupId: g.id,
      recipient: { name: "Explicit" },
      issueDate: "2026-01-31",
      expiryDate: "2026-05-05",
    });
    expect(c.expiryDate).toBe("2026-05-05");
    const reset: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { expiryDate: null } }), 200);
    expect(reset.expiryDate).toBe("2027-01-31");

    await expectStatus(await api.patch(`/v1/groups/${g.id}`, { data: { expiryPeriod: { amount: 1, unit: "month" } } }), 200);
    // A stored expiry does not change with the group...
    expect((await getCredential(api, c.id)).expiryDate).toBe("2027-01-31");
    const explicit: Credential = await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, { data: { expiryDate: "2030-01-01" } }),
      200,
    );
    expect(explicit.expiryDate).toBe("2030-01-01");
    // ...until null re-applies the group's setting as it is now.
    const again: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { expiryDate: null } }), 200);
    expect(again.expiryDate).toBe("2026-02-28");
    expect(await getCredential(api, c.id)).toEqual(again);

    await expectStatus(await api.patch(`/v1/groups/${g.id}`, { data: { expiryPeriod: null } }), 200);
    const cleared: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { expiryDate: null } }), 200);
    expect(cleared.expiryDate).toBeNull();
  });
});

test.describe("custom attributes", () => {
  test("stored as given (null, empty and 10,000 characters included); PATCH merges and null stays null", async ({ api }) => {
    const group = await newGroup(api);
    const big = "x".repeat(10_000);
    const tag64 = `custom.${"t".repeat(64)}`;
    const c = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Attrs" },
      customAttributes: {
        "custom.keep": "kept",
        "custom.drop": "to be nulled",
        "custom.Mixed_Case-9": "ok",
        "custom.nothing": null,
        "custom.empty": "",
        [tag64]: big,
      },
    });
    expect(c.customAttributes).toEqual({
      "custom.keep": "kept",
      "custom.drop": "to be nulled",
      "custom.Mixed_Case-9": "ok",
      "custom.nothing": null,
      "custom.empty": "",
      [tag64]: big,
    });
    const patched: Credential = await expectStatus(
      await api.patch(`/v1/credentials/${c.id}`, {
        data: { customAttributes: { "custom.drop": null, "custom.new": "added", "custom.keep": "changed" } },
      }),
      200,
    );
    expect(patched.customAttributes).toEqual({
      "custom.keep": "changed",
      "custom.drop": null,
      "custom.Mixed_Case-9": "ok",
      "custom.nothing": null,
      "custom.empty": "",
      "custom.new": "added",
      [tag64]: big,
    });
    expect(Object.prototype.hasOwnProperty.call(patched.customAttributes, "custom.drop")).toBe(true);
    // A PATCH without customAttributes leaves them alone.
    const other: Credential = await expectStatus(await api.patch(`/v1/credentials/${c.id}`, { data: { issueDate: "2026-01-02" } }), 200);
    expect(other.customAttributes).toEqual(patched.customAttributes);
    expect((await getCredential(api, c.id)).customAttributes).toEqual(patched.customAttributes);
    expect((await listed(api, c.id))?.customAttributes).toEqual(patched.customAttributes);
  });
});

test.describe("designs and delete", () => {
  test("designs: group order, png and pdf URLs that are public; after DELETE: 404 everywhere, previews 404", async ({
    api,
    client,
    server,
  }) => {
    const [cert, badge] = await Promise.all([createDesign(api, "certificate"), createDesign(api, "badge")]);
    const group = await createGroup(api, { designIds: [badge.id, cert.id] });
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Preview Person", email: uniqueEmail() } });
    const designs: { id: string; name: string; previews: { format: string; url: string }[] }[] = await expectStatus(
      await api.get(`/v1/credentials/${c.id}/designs`),
      200,
    );
    expect(Array.isArray(designs)).toBe(true);
    expect(designs.map((d) => d.id)).toEqual([badge.id, cert.id]);
    expect(designs.map((d) => d.name)).toEqual([badge.name, cert.name]);
    const anonymous = await client({ version: null });
    const urls: string[] = [];
    for (const d of designs) {
      expect(d.previews.map((p) => p.format).sort()).toEqual(["pdf", "png"]);
      for (const p of d.previews) {
        const u = new URL(p.url); // absolute
        urls.push(`${server.baseURL}${u.pathname}${u.search}`);
        const res = await anonymous.get(urls.at(-1)!);
        expect(res.status(), p.url).toBe(200);
        expect(res.headers()["content-type"]).toContain(p.format === "png" ? "image/png" : "application/pdf");
      }
    }
    // An interaction, so that there is something to be gone after.
    await expectStatus(
      await api.post("/v1/credential-interactions", {
        data: { credentialId: c.id, eventType: "credential_viewed", triggeredBy: "guest", triggeredAt: new Date().toISOString() },
      }),
      201,
    );

    const del = await api.delete(`/v1/credentials/${c.id}`);
    expect(del.status()).toBe(204);
    expect((await del.body()).length).toBe(0);
    await expectError(await api.get(`/v1/credentials/${c.id}`), 404, "not_found");
    await expectError(await api.delete(`/v1/credentials/${c.id}`), 404, "not_found");
    await expectError(await api.patch(`/v1/credentials/${c.id}`, { data: { issueDate: "2026-01-01" } }), 404, "not_found");
    await expectError(await api.post(`/v1/credentials/${c.id}/issue`), 404, "not_found");
    await expectError(await api.get(`/v1/credentials/${c.id}/designs`), 404, "not_found");
    expect(await listed(api, c.id)).toBeUndefined();
    for (const url of urls) expect((await anonymous.get(url)).status(), url).toBe(404);
    const events = await listAll<Interaction>(api, "/v1/credential-interactions");
    expect(events.filter((e) => e.credentialId === c.id)).toEqual([]);
  });

  test("DELETE an issued credential: its wallet page is gone too; an unknown id → 404", async ({ api, client, server }) => {
    const group = await newGroup(api);
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Issued then deleted" } });
    const anonymous = await client({ version: null });
    const wallet = `${server.baseURL}/credentials/${c.publicId}`;
    expect((await anonymous.get(wallet)).status(), "a draft has no wallet page").toBe(404);
    await issue(api, c.id);
    expect((await anonymous.get(wallet)).status(), "an issued credential's wallet page").toBe(200);
    expect((await api.delete(`/v1/credentials/${c.id}`)).status()).toBe(204);
    expect((await anonymous.get(wallet)).status(), "the wallet page after DELETE").toBe(404);
    await expectError(await api.get(`/v1/credentials/${c.id}`), 404, "not_found");
    await expectError(await api.delete("/v1/credentials/cred_does_not_exist"), 404, "not_found");
    expect(await allCredentials(api)).toEqual([]);
  });
});

test.describe("organization isolation", () => {
  test("another organization's credential is 404 for get, patch, delete, issue, send and designs; nothing changes", async ({
    api,
    newOrg,
    client,
  }) => {
    const group = await newGroup(api);
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Mine", email: uniqueEmail() } });
    const issued = await issue(
      api,
      (await createCredential(api, { groupId: group.id, recipient: { name: "Mine 2", email: uniqueEmail() } })).id,
    );
    const other = await client({ token: (await newOrg()).token });
    for (const id of [draft.id, issued.id, "cred_unknown_0000"]) {
      await expectError(await other.get(`/v1/credentials/${id}`), 404, "not_found");
      await expectError(await other.patch(`/v1/credentials/${id}`, { data: { issueDate: "2026-01-01" } }), 404, "not_found");
      await expectError(await other.delete(`/v1/credentials/${id}`), 404, "not_found");
      await expectError(await other.post(`/v1/credentials/${id}/issue`), 404, "not_found");
      await expectError(await send(other, id), 404, "not_found");
      await expectError(await other.get(`/v1/credentials/${id}/designs`), 404, "not_found");
    }
    expect(await getCredential(api, draft.id)).toEqual(draft);
    expect(await getCredential(api, issued.id)).toEqual(issued);
    expect(await allCredentials(other)).toEqual([]);
    // A group of this organization is unknown to the other one.
    await expectError(
      await other.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "X" } } }),
      400,
      "validation_error",
      {
        paths: ["groupId"],
        exactPaths: true,
      },
    );
  });
});

test.describe("GET /v1/credentials", () => {
  test("newest first; walking next to the end and prev back returns each credential once", async ({ api }) => {
    const group = await newGroup(api);
    const made: Credential[] = [];
    for (let i = 0; i < 7; i++) made.push(await createCredential(api, { groupId: group.id, recipient: { name: `L${i}` } }));
    const expected = [...made].reverse().map((c) => c.id);

    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const p: Page = await page(api, { limit: "3", ...(cursor ? { cursor } : {}) });
      pages.push(p);
      cursor = p.pagination.next;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.data.map((c) => c.id))).toEqual(expected);
    expect(pages[0]!.pagination.prev).toBeNull();
    expect(pages[2]!.pagination.next).toBeNull();
    for (const c of pages.flatMap((p) => p.data)) expectCredentialShape(c);

    // prev from the last page gives the middle page, then the first.
    const back1 = await page(api, { limit: "3", cursor: pages[2]!.pagination.prev! });
    expect(back1.data.map((c) => c.id)).toEqual(pages[1]!.data.map((c) => c.id));
    const back2 = await page(api, { limit: "3", cursor: back1.pagination.prev! });
    expect(back2.data.map((c) => c.id)).toEqual(pages[0]!.data.map((c) => c.id));
    expect(back2.pagination.prev).toBeNull();
  });

  test("default limit 20; limit and cursor are validated; unknown query parameters are rejected", async ({ api }) => {
    const group = await newGroup(api);
    await Promise.all(Array.from({ length: 21 }, (_, i) => createCredential(api, { groupId: group.id, recipient: { name: `D${i}` } })));
    const first = await page(api);
    expect(first.data.length).toBe(20);
    const rest = await page(api, { cursor: first.pagination.next! });
    expect(rest.data.length).toBe(1);
    expect(rest.pagination.next).toBeNull();
    expect(new Set([...first.data, ...rest.data].map((c) => c.id)).size).toBe(21);
    expect((await page(api, { limit: "100" })).data.length).toBe(21);
    for (const limit of ["0", "101", "-1", "abc", "1.5", ""]) {
      await expectError(await api.get(`/v1/credentials?limit=${limit}`), 400, "validation_error", { paths: ["limit"] });
    }
    for (const cursor of ["garbage", "eyJ0IjoiMjAyNiJ9", first.pagination.next!.slice(0, -3) + "abc"]) {
      await expectError(await api.get(`/v1/credentials?cursor=${encodeURIComponent(cursor)}`), 400, "validation_error", {
        paths: ["cursor"],
      });
    }
    await expectError(await api.get("/v1/credentials?status=draft"), 400, "validation_error", { paths: ["status"] });
  });

  test("limit in another notation than a decimal integer (0x10, 0b11, 0o7) → validation_error at limit", async ({ api }) => {
    for (const limit of ["0x10", "0b11", "0o7"]) {
      await expectError(await api.get(`/v1/credentials?limit=${limit}`), 400, "validation_error", { paths: ["limit"] });
    }
  });
});

test.describe("concurrency", () => {
  test("50 parallel issue calls on one draft: exactly one 200 and 49 × 409", async ({ api }) => {
    const group = await newGroup(api);
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "Race", email: uniqueEmail() } });
    const responses = await Promise.all(Array.from({ length: 50 }, () => api.post(`/v1/credentials/${c.id}/issue`)));
    const results = await Promise.all(responses.map(async (r) => ({ status: r.status(), body: await r.json().catch(() => null) })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 409))).toBe(1);
    expect(statuses.filter((s) => s === 409).length).toBe(49);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body?.error?.code).toBe("conflict");
    expect((await getCredential(api, c.id)).status).toBe("issued");
  });

  test("parallel PATCHes of different custom attributes all take effect (PATCH merges, no lost update)", async ({ api }) => {
    const group = await newGroup(api);
    const c = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Merge", email: uniqueEmail() },
      customAttributes: { "custom.base": "0" },
    });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { [`custom.k${i}`]: String(i) } } }),
      ),
    );
    expect(responses.map((r) => r.status())).toEqual(Array(20).fill(200));
    const expected = Object.fromEntries([["custom.base", "0"], ...Array.from({ length: 20 }, (_, i) => [`custom.k${i}`, String(i)])]);
    // Every PATCH answered 200, so every key it merged must be there.
    expect((await getCredential(api, c.id)).customAttributes).toEqual(expected);
  });

  test("a parallel rename and custom attribute PATCH both take effect", async ({ api }) => {
    const group = await newGroup(api);
    for (let round = 0; round < 5; round++) {
      const c = await createCredential(api, { groupId: group.id, recipient: { name: "Before", email: uniqueEmail() } });
      const [a, b] = await Promise.all([
        api.patch(`/v1/credentials/${c.id}`, { data: { recipient: { id: c.recipient!.id, name: "After" } } }),
        api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.x": "y" } } }),
      ]);
      expect([a.status(), b.status()]).toEqual([200, 200]);
      const after = await getCredential(api, c.id);
      expect(after.attributes["recipient.name"], `round ${round}`).toBe("After");
      expect(after.recipient?.name).toBe("After");
      expect(after.customAttributes).toEqual({ "custom.x": "y" });
    }
  });

  test("free quota of 5 under parallel issue and create-issue-send: exactly 5 succeed, the rest 402, usage never over", async ({
    scratchDatabase,
    startServer,
    client,
    e2eState,
  }) => {
    test.setTimeout(120_000);
    const databaseUrl = await scratchDatabase();
    const dataDir = newDataDir(e2eState.runDir, "quota");
    const orgs = await createOrgs({ databaseUrl, dataDir }, `q5-${randomBytes(3).toString("hex")}`, 2, 0);
    const quotaServer = await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, FREE_PLAN_MONTHLY_ISSUES: "5" });

    // Organization 1: 12 drafts issued at once.
    const api = await client({ baseURL: quotaServer.baseURL, token: orgs[0]!.token });
    const group = await newGroup(api);
    const drafts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createCredential(api, { groupId: group.id, recipient: { name: `Q${i}` } })),
    );
    const responses = await Promise.all(drafts.map((d) => api.post(`/v1/credentials/${d.id}/issue`)));
    const results = await Promise.all(responses.map(async (r) => ({ status: r.status(), body: await r.json().catch(() => null) })));
    const tally = results.reduce<Record<number, number>>((t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }), {});
    expect(tally, JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 402))).toEqual({ 200: 5, 402: 7 });
    for (const r of results.filter((x) => x.status === 402)) expect(r.body?.error?.code).toBe("payment_required");
    const after = await allCredentials(api);
    expect(after.filter((c) => c.status === "issued").length).toBe(5);
    expect(after.filter((c) => c.status === "draft").length).toBe(7);

    // At the quota: issuing a non-draft is still 409 (conflict beats payment_required); a draft is 402;
    // create-issue-send is 402 and creates nothing.
    const issuedOne = after.find((c) => c.status === "issued")!;
    await expectError(await api.post(`/v1/credentials/${issuedOne.id}/issue`), 409, "conflict");
    await expectError(await api.post(`/v1/credentials/${after.find((c) => c.status === "draft")!.id}/issue`), 402, "payment_required");
    const email402 = uniqueEmail("quota");
    await expectError(
      await api.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { name: "Over", email: email402 } } }),
      402,
      "payment_required",
    );
    expect((await allCredentials(api)).length).toBe(12);

    // Organization 2: 12 create-issue-send at once, each with an email.
    const api2 = await client({ baseURL: quotaServer.baseURL, token: orgs[1]!.token });
    const group2 = await newGroup(api2);
    const emails = Array.from({ length: 12 }, (_, i) => uniqueEmail(`cis${i}`));
    const cis = await Promise.all(
      emails.map((email, i) =>
        api2.post("/v1/credentials/create-issue-send", { data: { groupId: group2.id, recipient: { name: `C${i}`, email } } }),
      ),
    );
    const cisResults = await Promise.all(cis.map(async (r) => ({ status: r.status(), body: await r.json().catch(() => null) })));
    const tally2 = cisResults.reduce<Record<number, number>>((t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }), {});
    expect(tally2, JSON.stringify(cisResults.filter((r) => r.status !== 201 && r.status !== 402))).toEqual({ 201: 5, 402: 7 });
    const created2 = await allCredentials(api2);
    expect(created2.length).toBe(5);
    expect(created2.every((c) => c.status === "issued")).toBe(true);

    // Mail: exactly the 5 accepted ones are delivered (as .eml: this server has no SMTP_URL).
    const mailDir = path.join(dataDir, "mail");
    const accepted = new Set(created2.map((c) => c.recipient!.email));
    await waitFor("5 emails", () => (emlCount(mailDir) >= 5 ? true : undefined), 30_000);
    await sleep(2500);
    const delivered = [...emails, email402].filter((e) => emlFilesContaining(mailDir, e).length > 0);
    expect(new Set(delivered)).toEqual(accepted);
    expect(emlCount(mailDir)).toBe(5);
  });
});

function emlCount(dir: string): number {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(".eml")).length;
  } catch {
    return 0;
  }
}
