// Bad input for the credential endpoints: every rule of docs/api.md, Credentials (and checks 7-10 of
// section 1) answers with the right status, code and detail paths, and writes nothing: no credential,
// no recipient, no queued email. Issue 3, "Bad input".
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus } from "../support/api-helpers";
import {
  addDays,
  allCredentials,
  createCredential,
  getCredential,
  issue,
  newDataDir,
  newGroup,
  todayUtc,
  uniqueEmail,
  type Credential,
} from "../support/credentials";
import { emlFilesContaining, sleep, waitFor } from "../support/mail";
import { createOrgs } from "../support/state";

// Many requests per test, and servers that share the machine with other runs: more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

type Case = { label: string; body: unknown; paths: string[]; exact?: boolean };

const CREATE_ENDPOINTS = ["/v1/credentials", "/v1/credentials/create-issue-send"] as const;

/** Posts each case and checks the 400 validation_error with its detail paths. */
async function expectValidationErrors(api: APIRequestContext, method: "post" | "patch", url: string, cases: Case[]) {
  for (const c of cases) {
    const res = await api[method](url, { data: c.body as Record<string, unknown> });
    const text = await res.text();
    expect(res.status(), `${c.label}: ${text.slice(0, 400)}`).toBe(400);
    const body = JSON.parse(text);
    expect(body.error?.code, `${c.label}: ${text.slice(0, 400)}`).toBe("validation_error");
    const paths: string[] = (body.error.details ?? []).map((d: { path: string }) => d.path);
    if (c.exact) expect(paths.sort(), `${c.label}: ${text.slice(0, 400)}`).toEqual([...c.paths].sort());
    else for (const p of c.paths) expect(paths, `${c.label}: ${text.slice(0, 400)}`).toContain(p);
    for (const d of body.error.details) expect(typeof d.message === "string" && d.message.length > 0, c.label).toBe(true);
  }
}

/**
 * No recipient was created for `email` by the failed requests: a credential created now with that
 * address and the name "Real Person" shows that name (an existing recipient would keep its own).
 */
async function expectNoRecipientFor(api: APIRequestContext, groupId: string, email: string) {
  const probe = await createCredential(api, { groupId, recipient: { name: "Real Person", email: email.toUpperCase() } });
  expect(probe.recipient?.name, `a recipient for ${email} existed before`).toBe("Real Person");
  expect((await api.delete(`/v1/credentials/${probe.id}`)).status()).toBe(204);
}

/**
 * No email to `ghost` was queued: a credential sent now to a marker address is delivered (as .eml on
 * the project server, which has no SMTP_URL), and by then nothing for `ghost` has appeared.
 */
async function expectNoMailFor(api: APIRequestContext, dataDir: string, groupId: string, ghosts: string[]) {
  const marker = uniqueEmail("marker");
  const c: Credential = await expectStatus(
    await api.post("/v1/credentials/create-issue-send", { data: { groupId, recipient: { name: "Marker", email: marker } } }),
    201,
  );
  const mailDir = path.join(dataDir, "mail");
  await waitFor(`the marker email to ${marker}`, () => emlFilesContaining(mailDir, marker).length > 0, 30_000);
  for (const ghost of ghosts)
    expect(
      emlFilesContaining(mailDir, ghost).map((m) => m.file),
      `mail to ${ghost}`,
    ).toEqual([]);
  expect((await api.delete(`/v1/credentials/${c.id}`)).status()).toBe(204);
}

const NAME_CASES = (base: (recipient: unknown) => Record<string, unknown>, email: string): Case[] => [
  { label: "name missing", body: base({ email }), paths: ["recipient.name"], exact: true },
  { label: "name empty", body: base({ name: "", email }), paths: ["recipient.name"], exact: true },
  { label: "name blank", body: base({ name: "   ", email }), paths: ["recipient.name"], exact: true },
  { label: "name whitespace", body: base({ name: "\t\n \r", email }), paths: ["recipient.name"], exact: true },
  { label: "name 201 chars", body: base({ name: "n".repeat(201), email }), paths: ["recipient.name"], exact: true },
  { label: "name number", body: base({ name: 42, email }), paths: ["recipient.name"], exact: true },
  { label: "name null", body: base({ name: null, email }), paths: ["recipient.name"], exact: true },
  { label: "name array", body: base({ name: ["Ada"], email }), paths: ["recipient.name"], exact: true },
  { label: "name object", body: base({ name: { first: "Ada" }, email }), paths: ["recipient.name"], exact: true },
];

const BAD_EMAILS: unknown[] = [
  "",
  "plainaddress",
  "ada@",
  "@example.com",
  "ada lovelace@example.com",
  "ada@@example.com",
  "ada@example..com",
  "ada@exa mple.com",
  "<ada@example.com>",
  "Ada <ada@example.com>",
  `${"a".repeat(64)}@${"b".repeat(190)}.com`,
  42,
  true,
  ["ada@example.com"],
  { address: "ada@example.com" },
];

const BAD_DATES: unknown[] = [
  "2026-02-30",
  "2025-02-29",
  "2026-04-31",
  "2026-1-5",
  "2026-01-5",
  "26-01-05",
  "2026-13-01",
  "2026-00-10",
  "2026-01-00",
  "2026-01-32",
  "2026-01-05T00:00:00Z",
  "2026-01-05T00:00:00",
  "2026-01-05T10:00:00+02:00",
  "2026-01-05 00:00",
  "2026/01/05",
  "05.01.2026",
  "20260105",
  " 2026-01-05",
  "2026-01-05 ",
  "",
  "today",
  20260105,
  true,
  ["2026-01-05"],
  { year: 2026 },
];

const BAD_KEYS = [
  "course",
  "custom",
  "custom.",
  "Custom.course",
  "CUSTOM.course",
  "custom.two words",
  "custom.a.b",
  "custom.a/b",
  "custom.é",
  `custom.${"t".repeat(65)}`,
  "recipient.name",
  "group.name",
  " custom.x",
  "",
];

const BAD_VALUES: unknown[] = [1, 0, true, false, { a: "b" }, ["x"], "x".repeat(10_001)];

for (const endpoint of CREATE_ENDPOINTS) {
  test.describe(`POST ${endpoint}: bad input writes nothing`, () => {
    test("recipient and its name: missing, empty, whitespace, 201 characters, wrong types", async ({ api, server }) => {
      const group = await newGroup(api);
      const email = uniqueEmail("ghost");
      const base = (recipient: unknown) => ({ groupId: group.id, recipient });
      await expectValidationErrors(api, "post", endpoint, [
        ...NAME_CASES(base, email),
        { label: "recipient missing", body: { groupId: group.id }, paths: ["recipient"], exact: true },
        { label: "recipient null", body: base(null), paths: ["recipient"], exact: true },
        { label: "recipient string", body: base("Ada Lovelace"), paths: ["recipient"], exact: true },
        { label: "recipient array", body: base([{ name: "Ada" }]), paths: ["recipient"], exact: true },
        { label: "recipient unknown field", body: base({ name: "Ada", email, phone: "+1 555" }), paths: ["recipient.phone"], exact: true },
        { label: "recipient id on create", body: base({ id: "rcp_x", name: "Ada", email }), paths: ["recipient.id"], exact: true },
      ]);
      expect(await allCredentials(api)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("recipient.email: not an address or not a string", async ({ api, server }) => {
      const group = await newGroup(api);
      await expectValidationErrors(
        api,
        "post",
        endpoint,
        BAD_EMAILS.map((email) => ({
          label: `email ${JSON.stringify(email)}`,
          body: { groupId: group.id, recipient: { name: "Ghost", email } },
          paths: ["recipient.email"],
          exact: true,
        })),
      );
      expect(await allCredentials(api)).toEqual([]);
      if (endpoint.endsWith("create-issue-send"))
        await expectNoMailFor(api, server.dataDir, group.id, ["plainaddress", "ada@example..com", "ada@@example.com"]);
    });

    test("issueDate and expiryDate: only real YYYY-MM-DD dates", async ({ api, server }) => {
      const group = await newGroup(api);
      const email = uniqueEmail("ghost");
      const cases: Case[] = [];
      for (const field of ["issueDate", "expiryDate"]) {
        for (const value of BAD_DATES) {
          cases.push({
            label: `${field} ${JSON.stringify(value)}`,
            body: { groupId: group.id, recipient: { name: "Ghost", email }, [field]: value },
            paths: [field],
            exact: true,
          });
        }
      }
      cases.push({
        label: "issueDate null",
        body: { groupId: group.id, recipient: { name: "Ghost", email }, issueDate: null },
        paths: ["issueDate"],
        exact: true,
      });
      await expectValidationErrors(api, "post", endpoint, cases);
      expect(await allCredentials(api)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("expiryDate before issueDate (given or defaulted to today) → validation_error at expiryDate", async ({ api, server }) => {
      const group = await newGroup(api);
      const email = uniqueEmail("ghost");
      const r = { name: "Ghost", email };
      await expectValidationErrors(api, "post", endpoint, [
        {
          label: "one day before",
          body: { groupId: group.id, recipient: r, issueDate: "2026-05-10", expiryDate: "2026-05-09" },
          paths: ["expiryDate"],
        },
        {
          label: "years before",
          body: { groupId: group.id, recipient: r, issueDate: "2026-05-10", expiryDate: "2020-01-01" },
          paths: ["expiryDate"],
        },
        {
          label: "before today's default issueDate",
          body: { groupId: group.id, recipient: r, expiryDate: addDays(todayUtc(), -1) },
          paths: ["expiryDate"],
        },
      ]);
      expect(await allCredentials(api)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("customAttributes: malformed keys, non-string values, over 10,000 characters, not an object", async ({ api, server }) => {
      const group = await newGroup(api);
      const email = uniqueEmail("ghost");
      const base = (customAttributes: unknown) => ({ groupId: group.id, recipient: { name: "Ghost", email }, customAttributes });
      await expectValidationErrors(api, "post", endpoint, [
        ...BAD_KEYS.map((key) => ({
          label: `key ${JSON.stringify(key)}`,
          body: base({ "custom.fine": "ok", [key]: "v" }),
          paths: [`customAttributes.${key}`],
        })),
        ...BAD_VALUES.map((value) => ({
          label: `value ${JSON.stringify(value).slice(0, 30)}`,
          body: base({ "custom.fine": "ok", "custom.bad": value }),
          paths: ["customAttributes.custom.bad"],
          exact: true,
        })),
        { label: "customAttributes string", body: base("custom.a=b"), paths: ["customAttributes"], exact: true },
        { label: "customAttributes array", body: base([{ "custom.a": "b" }]), paths: ["customAttributes"], exact: true },
        { label: "customAttributes number", body: base(7), paths: ["customAttributes"], exact: true },
      ]);
      expect(await allCredentials(api)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("customAttributes key __proto__ is a malformed key like any other (not silently dropped)", async ({ api }) => {
      const group = await newGroup(api);
      for (const value of ["x", null, { "custom.a": "polluted" }]) {
        const raw = JSON.stringify({ groupId: group.id, recipient: { name: "Proto" }, customAttributes: { "custom.ok": "1" } }).replace(
          '"custom.ok":"1"',
          `"custom.ok":"1","__proto__":${JSON.stringify(value)}`,
        );
        const res = await api.post(endpoint, { headers: { "Content-Type": "application/json" }, data: Buffer.from(raw) });
        await expectError(res, 400, "validation_error", { paths: ["customAttributes.__proto__"] });
      }
      expect(await allCredentials(api)).toEqual([]);
    });

    test("groupId: missing, wrong type, unknown, another organization's → validation_error at groupId (not 404)", async ({
      api,
      newOrg,
      client,
      server,
    }) => {
      const group = await newGroup(api);
      const other = await client({ token: (await newOrg()).token });
      const theirGroup = await newGroup(other);
      const email = uniqueEmail("ghost");
      const r = { name: "Ghost", email };
      await expectValidationErrors(api, "post", endpoint, [
        { label: "missing", body: { recipient: r }, paths: ["groupId"], exact: true },
        { label: "empty", body: { groupId: "", recipient: r }, paths: ["groupId"], exact: true },
        { label: "number", body: { groupId: 12, recipient: r }, paths: ["groupId"], exact: true },
        { label: "null", body: { groupId: null, recipient: r }, paths: ["groupId"], exact: true },
        { label: "array", body: { groupId: [group.id], recipient: r }, paths: ["groupId"], exact: true },
        { label: "unknown", body: { groupId: "grp_does_not_exist", recipient: r }, paths: ["groupId"], exact: true },
        { label: "other organization's", body: { groupId: theirGroup.id, recipient: r }, paths: ["groupId"], exact: true },
      ]);
      expect(await allCredentials(api)).toEqual([]);
      expect(await allCredentials(other)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("unknown fields (read-only ones included) and several errors at once", async ({ api, server }) => {
      const group = await newGroup(api);
      const email = uniqueEmail("ghost");
      const ok = { groupId: group.id, recipient: { name: "Ghost", email } };
      await expectValidationErrors(api, "post", endpoint, [
        { label: "foo", body: { ...ok, foo: 1 }, paths: ["foo"], exact: true },
        { label: "status", body: { ...ok, status: "issued" }, paths: ["status"], exact: true },
        { label: "id", body: { ...ok, id: "cred_mine" }, paths: ["id"], exact: true },
        { label: "publicId", body: { ...ok, publicId: "00000000-0000-4000-8000-000000000000" }, paths: ["publicId"], exact: true },
        { label: "attributes", body: { ...ok, attributes: { "recipient.name": "X" } }, paths: ["attributes"], exact: true },
        { label: "recipientId", body: { ...ok, recipientId: "rcp_1" }, paths: ["recipientId"], exact: true },
        { label: "deliveryMethod", body: { ...ok, deliveryMethod: "email" }, paths: ["deliveryMethod"], exact: true },
        {
          label: "three bad fields",
          body: { groupId: 5, recipient: { name: "", email: "nope" }, issueDate: "2026-02-30", extra: true },
          paths: ["groupId", "recipient.name", "recipient.email", "issueDate", "extra"],
          exact: true,
        },
      ]);
      expect(await allCredentials(api)).toEqual([]);
      await expectNoRecipientFor(api, group.id, email);
      if (endpoint.endsWith("create-issue-send")) await expectNoMailFor(api, server.dataDir, group.id, [email]);
    });

    test("a body that is not a JSON object → 400 invalid_json", async ({ api }) => {
      for (const data of ["[]", '"text"', "42", "null", "true", "{not json", "", '{"groupId": "x",}']) {
        const res = await api.post(endpoint, { headers: { "Content-Type": "application/json" }, data: Buffer.from(data) });
        await expectError(res, 400, "invalid_json");
      }
      expect(await allCredentials(api)).toEqual([]);
    });
  });
}

test.describe("PATCH /v1/credentials/{id}: bad input changes nothing", () => {
  async function setup(api: APIRequestContext) {
    const group = await newGroup(api);
    const c = await createCredential(api, {
      groupId: group.id,
      recipient: { name: "Patch Target", email: uniqueEmail("target") },
      issueDate: "2026-03-10",
      expiryDate: "2027-03-10",
      customAttributes: { "custom.a": "1" },
    });
    return { group, c };
  }

  test("recipient: missing or foreign id, bad name or email, unknown fields", async ({ api, newOrg, client }) => {
    const { group, c } = await setup(api);
    const sibling = await createCredential(api, { groupId: group.id, recipient: { name: "Sibling", email: uniqueEmail("sib") } });
    const other = await client({ token: (await newOrg()).token });
    const theirs = await createCredential(other, {
      groupId: (await newGroup(other)).id,
      recipient: { name: "Theirs", email: c.recipient!.email },
    });
    const id = c.recipient!.id;
    const url = `/v1/credentials/${c.id}`;
    await expectValidationErrors(api, "patch", url, [
      { label: "id missing", body: { recipient: { name: "New" } }, paths: ["recipient.id"], exact: true },
      {
        label: "id of another recipient",
        body: { recipient: { id: sibling.recipient!.id, name: "Hijack" } },
        paths: ["recipient.id"],
        exact: true,
      },
      {
        label: "id of another organization's recipient",
        body: { recipient: { id: theirs.recipient!.id, name: "Hijack" } },
        paths: ["recipient.id"],
        exact: true,
      },
      { label: "unknown id", body: { recipient: { id: "rcp_nope", name: "Hijack" } }, paths: ["recipient.id"], exact: true },
      { label: "id number", body: { recipient: { id: 1, name: "Hijack" } }, paths: ["recipient.id"], exact: true },
      { label: "id empty", body: { recipient: { id: "", name: "Hijack" } }, paths: ["recipient.id"], exact: true },
      ...NAME_CASES((r) => ({ recipient: { id, ...(r as object) } }), c.recipient!.email),
      ...BAD_EMAILS.map((email) => ({
        label: `email ${JSON.stringify(email)}`,
        body: { recipient: { id, name: "New", email } },
        paths: ["recipient.email"],
        exact: true,
      })),
      {
        label: "unknown recipient field",
        body: { recipient: { id, name: "New", nickname: "N" } },
        paths: ["recipient.nickname"],
        exact: true,
      },
      { label: "recipient null", body: { recipient: null }, paths: ["recipient"], exact: true },
      { label: "recipient string", body: { recipient: "New" }, paths: ["recipient"], exact: true },
    ]);
    expect(await getCredential(api, c.id)).toEqual(c);
    expect(await getCredential(api, sibling.id)).toEqual(sibling);
    expect(await getCredential(other, theirs.id)).toEqual(theirs);
  });

  test("a credential without recipient cannot be given one through recipient.id", async ({ api }) => {
    const group = await newGroup(api);
    const sibling = await createCredential(api, { groupId: group.id, recipient: { name: "Has email", email: uniqueEmail() } });
    const c = await createCredential(api, { groupId: group.id, recipient: { name: "No email" } });
    await expectValidationErrors(api, "patch", `/v1/credentials/${c.id}`, [
      {
        label: "someone else's recipient",
        body: { recipient: { id: sibling.recipient!.id, name: "X" } },
        paths: ["recipient.id"],
        exact: true,
      },
      {
        label: "made-up id",
        body: { recipient: { id: "rcp_new", name: "X", email: uniqueEmail() } },
        paths: ["recipient.id"],
        exact: true,
      },
    ]);
    expect(await getCredential(api, c.id)).toEqual(c);
    expect(await getCredential(api, sibling.id)).toEqual(sibling);
  });

  test("dates: bad formats, null issueDate, expiry before issue either way", async ({ api }) => {
    const { c } = await setup(api);
    const url = `/v1/credentials/${c.id}`;
    const cases: Case[] = [];
    for (const field of ["issueDate", "expiryDate"]) {
      for (const value of BAD_DATES)
        cases.push({ label: `${field} ${JSON.stringify(value)}`, body: { [field]: value }, paths: [field], exact: true });
    }
    cases.push({ label: "issueDate null", body: { issueDate: null }, paths: ["issueDate"], exact: true });
    await expectValidationErrors(api, "patch", url, cases);
    // Both given, expiry first.
    await expectValidationErrors(api, "patch", url, [
      { label: "both, expiry before", body: { issueDate: "2026-05-10", expiryDate: "2026-05-09" }, paths: ["expiryDate"] },
      { label: "expiry before the stored issueDate", body: { expiryDate: "2026-03-09" }, paths: ["expiryDate"] },
    ]);
    // issueDate after the stored explicit expiry: the pair is rejected at one of the two dates.
    const res = await api.patch(url, { data: { issueDate: "2027-03-11" } });
    const body = await expectError(res, 400, "validation_error");
    expect(
      body.error.details!.map((d) => d.path).some((p) => p === "issueDate" || p === "expiryDate"),
      JSON.stringify(body),
    ).toBe(true);
    expect(await getCredential(api, c.id)).toEqual(c);
  });

  test("customAttributes: malformed keys and values; unknown and read-only fields", async ({ api }) => {
    const { c } = await setup(api);
    const url = `/v1/credentials/${c.id}`;
    await expectValidationErrors(api, "patch", url, [
      ...BAD_KEYS.map((key) => ({
        label: `key ${JSON.stringify(key)}`,
        body: { customAttributes: { [key]: "v" } },
        paths: [`customAttributes.${key}`],
        exact: true,
      })),
      ...BAD_VALUES.map((value) => ({
        label: `value ${JSON.stringify(value).slice(0, 30)}`,
        body: { customAttributes: { "custom.a": value } },
        paths: ["customAttributes.custom.a"],
        exact: true,
      })),
      { label: "customAttributes array", body: { customAttributes: ["custom.a"] }, paths: ["customAttributes"], exact: true },
      { label: "customAttributes null", body: { customAttributes: null }, paths: ["customAttributes"], exact: true },
      { label: "unknown field", body: { color: "red" }, paths: ["color"], exact: true },
      { label: "groupId is not updatable", body: { groupId: c.groupId }, paths: ["groupId"], exact: true },
      { label: "status is read-only", body: { status: "issued" }, paths: ["status"], exact: true },
      { label: "publicId is read-only", body: { publicId: c.publicId }, paths: ["publicId"], exact: true },
      {
        label: "valid and invalid together",
        body: { issueDate: "2026-04-01", customAttributes: { "custom.a": 2 } },
        paths: ["customAttributes.custom.a"],
        exact: true,
      },
    ]);
    expect(await getCredential(api, c.id)).toEqual(c);
  });

  test("customAttributes key __proto__ → validation_error, credential unchanged", async ({ api }) => {
    const { c } = await setup(api);
    const res = await api.patch(`/v1/credentials/${c.id}`, {
      headers: { "Content-Type": "application/json" },
      data: Buffer.from('{"customAttributes":{"__proto__":{"custom.z":"p"}}}'),
    });
    await expectError(res, 400, "validation_error", { paths: ["customAttributes.__proto__"] });
    expect(await getCredential(api, c.id)).toEqual(c);
  });

  test("not a JSON object → invalid_json; validation comes before not_found", async ({ api }) => {
    const { c } = await setup(api);
    for (const data of ["[]", '"x"', "7", "null", "{oops", ""]) {
      await expectError(
        await api.patch(`/v1/credentials/${c.id}`, { headers: { "Content-Type": "application/json" }, data: Buffer.from(data) }),
        400,
        "invalid_json",
      );
    }
    await expectError(await api.patch("/v1/credentials/cred_nope", { data: { issueDate: "2026-02-30" } }), 400, "validation_error", {
      paths: ["issueDate"],
    });
    await expectError(await api.patch("/v1/credentials/cred_nope", { data: { issueDate: "2026-02-27" } }), 404, "not_found");
    expect(await getCredential(api, c.id)).toEqual(c);
  });
});

test.describe("POST /v1/credentials/{id}/send: deliveryMethod", () => {
  test('anything but {deliveryMethod: "email"} → validation_error at its path; nothing queued, nothing changed', async ({
    api,
    server,
  }) => {
    const group = await newGroup(api);
    const email = uniqueEmail("nosend");
    const c = await issue(api, (await createCredential(api, { groupId: group.id, recipient: { name: "Not Sent", email } })).id);
    const url = `/v1/credentials/${c.id}/send`;
    await expectValidationErrors(api, "post", url, [
      { label: "missing", body: {}, paths: ["deliveryMethod"], exact: true },
      { label: "sms", body: { deliveryMethod: "sms" }, paths: ["deliveryMethod"], exact: true },
      { label: "EMAIL", body: { deliveryMethod: "EMAIL" }, paths: ["deliveryMethod"], exact: true },
      { label: "' email'", body: { deliveryMethod: " email" }, paths: ["deliveryMethod"], exact: true },
      { label: "empty", body: { deliveryMethod: "" }, paths: ["deliveryMethod"], exact: true },
      { label: "null", body: { deliveryMethod: null }, paths: ["deliveryMethod"], exact: true },
      { label: "number", body: { deliveryMethod: 1 }, paths: ["deliveryMethod"], exact: true },
      { label: "array", body: { deliveryMethod: ["email"] }, paths: ["deliveryMethod"], exact: true },
      { label: "extra field", body: { deliveryMethod: "email", to: "someone@example.com" }, paths: ["to"], exact: true },
    ]);
    for (const data of ["[]", '"email"', "null", "{bad", ""]) {
      await expectError(
        await api.post(url, { headers: { "Content-Type": "application/json" }, data: Buffer.from(data) }),
        400,
        "invalid_json",
      );
    }
    expect(await getCredential(api, c.id)).toEqual(c);
    await expectNoMailFor(api, server.dataDir, group.id, [email]);
  });

  test("validation comes before not_found and conflict", async ({ api }) => {
    const group = await newGroup(api);
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft", email: uniqueEmail() } });
    await expectError(await api.post(`/v1/credentials/${draft.id}/send`, { data: { deliveryMethod: "sms" } }), 400, "validation_error", {
      paths: ["deliveryMethod"],
    });
    await expectError(await api.post(`/v1/credentials/${draft.id}/send`, { data: { deliveryMethod: "email" } }), 409, "conflict");
    await expectError(await api.post("/v1/credentials/cred_nope/send", { data: { deliveryMethod: "fax" } }), 400, "validation_error", {
      paths: ["deliveryMethod"],
    });
    await expectError(await api.post("/v1/credentials/cred_nope/send", { data: { deliveryMethod: "email" } }), 404, "not_found");
    expect(await getCredential(api, draft.id)).toEqual(draft);
  });
});

test.describe("state and plan errors change nothing", () => {
  test("create-issue-send over the free quota → 402: no credential, no recipient, no email", async ({
    scratchDatabase,
    startServer,
    client,
    e2eState,
  }) => {
    test.setTimeout(120_000);
    const databaseUrl = await scratchDatabase();
    const dataDir = newDataDir(e2eState.runDir, "q0");
    const [org] = await createOrgs({ databaseUrl, dataDir }, `q0-${randomBytes(3).toString("hex")}`, 1, 0);
    const s = await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, FREE_PLAN_MONTHLY_ISSUES: "0" });
    const api = await client({ baseURL: s.baseURL, token: org!.token });
    const group = await createGroup(api, { designIds: [(await createDesign(api, "certificate")).id] });
    const email = uniqueEmail("over");
    await expectError(
      await api.post("/v1/credentials/create-issue-send", { data: { groupId: group.id, recipient: { name: "Over Quota", email } } }),
      402,
      "payment_required",
    );
    const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft", email: uniqueEmail() } });
    await expectError(await api.post(`/v1/credentials/${draft.id}/issue`), 402, "payment_required");
    expect(await getCredential(api, draft.id)).toEqual(draft);
    expect((await allCredentials(api)).map((c) => c.id)).toEqual([draft.id]);
    await expectNoRecipientFor(api, group.id, email);
    // The worker had time to deliver anything queued: nudged at once, polling every second.
    await sleep(2500);
    expect(emlFilesContaining(path.join(dataDir, "mail"), email)).toEqual([]);
  });
});
