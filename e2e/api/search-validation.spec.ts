// Bad input for POST /v1/credentials/search (docs/api.md: Every /v1 request, Success statuses and pagination, Search; lib/search/README.md):
// every mistake is a 400 validation_error whose details name the exact path; the request checks of
// section 1 (version, token, JSON, size, method) apply as on every /v1 route.
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { newGroup, type Credential } from "../support/credentials";
import { SEARCH, postJson, postSearch, searchPage } from "../support/search";

test.describe.configure({ timeout: 60_000 });

type Case = { body: unknown; paths: string[]; message?: RegExp; exact?: boolean };

/**
 * Each body answers 400 validation_error with exactly these detail paths (all of them, with `exact: false`).
 * Soft assertions: one run reports every case that fails, not just the first.
 */
async function expectCases(api: APIRequestContext, cases: Case[]) {
  for (const c of cases) {
    const res = await postSearch(api, c.body);
    const text = await res.text();
    const label = `${JSON.stringify(c.body).slice(0, 300)} → ${res.status()} ${text.slice(0, 600)}`;
    expect.soft(res.status(), label).toBe(400);
    expect.soft(res.headers()["content-type"] ?? "", label).toContain("application/json");
    let body: { error?: { code?: string; message?: string; details?: { path: string; message: string }[] } };
    try {
      body = JSON.parse(text);
    } catch {
      expect.soft(text, `${label}: not JSON`).toBe("a JSON body");
      continue;
    }
    expect.soft(Object.keys(body), label).toEqual(["error"]);
    expect.soft(body.error?.code, label).toBe("validation_error");
    expect.soft(typeof body.error?.message === "string" && body.error.message.length > 0, label).toBe(true);
    const details = Array.isArray(body.error?.details) ? body.error.details : [];
    expect.soft(Array.isArray(body.error?.details), label).toBe(true);
    for (const d of details) {
      expect.soft(Object.keys(d).sort(), label).toEqual(["message", "path"]);
      expect.soft(typeof d.message === "string" && d.message.length > 0, label).toBe(true);
    }
    const paths = details.map((d) => d.path);
    if (c.exact === false) for (const p of c.paths) expect.soft(paths, label).toContain(p);
    else expect.soft([...paths].sort(), label).toEqual([...c.paths].sort());
    if (c.message) {
      for (const p of c.paths) expect.soft(details.find((d) => d.path === p)?.message, label).toMatch(c.message);
    }
  }
}

const f = (filter: unknown, paths: string[], extra: Partial<Case> = {}): Case => ({ body: { filter }, paths, ...extra });

test.describe("POST /v1/credentials/search: bad input → 400 validation_error with the exact path", () => {
  test("top level: unknown keys, filter and sort not objects", async ({ api }) => {
    await expectCases(api, [
      { body: { foo: 1 }, paths: ["foo"] },
      { body: { filter: {}, where: { status: "draft" } }, paths: ["where"] },
      { body: { filters: {} }, paths: ["filters"] },
      { body: { filter: {}, page: 2 }, paths: ["page"] },
      { body: { Filter: {} }, paths: ["Filter"] },
      f([], ["filter"]),
      f([{ status: "draft" }], ["filter"]),
      f("status = 'draft'", ["filter"]),
      f(1, ["filter"]),
      f(true, ["filter"]),
      { body: { sort: "createdAt" }, paths: ["sort"] },
      { body: { sort: ["createdAt", "asc"] }, paths: ["sort"] },
      { body: { sort: 1 }, paths: ["sort"] },
    ]);
  });

  test("unknown fields and operators", async ({ api }) => {
    await expectCases(api, [
      f({ foo: "x" }, ["filter.foo"]),
      f({ name: "Ada" }, ["filter.name"]),
      f({ email: "ada@example.com" }, ["filter.email"]),
      f({ "recipient.phone": "1" }, ["filter.recipient.phone"]),
      f({ recipient: { phone: "1" } }, ["filter.recipient.phone"]),
      f({ recipient: { name: "Ada", id: "rcp_x" } }, ["filter.recipient.id"]),
      f({ recipient: "Ada" }, ["filter.recipient"]),
      f({ recipient: ["Ada"] }, ["filter.recipient"]),
      f({ "attributes.recipient.name": "Ada" }, ["filter.attributes.recipient.name"]),
      f({ customAttributes: {} }, ["filter.customAttributes"]),
      f({ Status: "draft" }, ["filter.Status"]),
      f({ and: [] }, ["filter.and"]),
      f({ Or: [] }, ["filter.Or"]),
      f({ XOR: [] }, ["filter.XOR"]),
      f({ issueDate: { like: "2026%" } }, ["filter.issueDate.like"]),
      f({ issueDate: { eq: "2026-01-01" } }, ["filter.issueDate.eq"]),
      f({ status: { equal: "draft" } }, ["filter.status.equal"]),
      f({ "recipient.name": { icontains: "a" } }, ["filter.recipient.name.icontains"]),
      f({ recipient: { name: { mode: "insensitive", contains: "a" } } }, ["filter.recipient.name.mode"]),
      f({ id: { Equals: "x" } }, ["filter.id.Equals"]),
      f({ createdAt: { between: ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"] } }, ["filter.createdAt.between"]),
      f({ issueDate: {} }, ["filter.issueDate"]),
      f({ recipient: { name: {} } }, ["filter.recipient.name"]),
    ]);
  });

  test("operators not available for the field's kind", async ({ api }) => {
    const cases: Case[] = [];
    for (const field of ["id", "publicId", "groupId", "recipientId"]) {
      for (const op of ["contains", "startsWith", "endsWith", "gt", "gte", "lt", "lte"])
        cases.push(f({ [field]: { [op]: "cred" } }, [`filter.${field}.${op}`]));
    }
    for (const op of ["contains", "startsWith", "endsWith", "gt", "gte", "lt", "lte"])
      cases.push(f({ status: { [op]: "draft" } }, [`filter.status.${op}`]));
    for (const field of ["issueDate", "expiryDate"]) {
      for (const op of ["contains", "startsWith", "endsWith"]) cases.push(f({ [field]: { [op]: "2026" } }, [`filter.${field}.${op}`]));
    }
    for (const field of ["createdAt", "updatedAt"]) {
      for (const op of ["contains", "startsWith", "endsWith"]) cases.push(f({ [field]: { [op]: "2026" } }, [`filter.${field}.${op}`]));
    }
    for (const op of ["gt", "gte", "lt", "lte"]) {
      cases.push(f({ "recipient.name": { [op]: "a" } }, [`filter.recipient.name.${op}`]));
      cases.push(f({ recipient: { email: { [op]: "a" } } }, [`filter.recipient.email.${op}`]));
    }
    cases.push(f({ recipient: { name: { gt: "a" } } }, ["filter.recipient.name.gt"]));
    cases.push(f({ issueDate: { gte: "2026-01-01", contains: "01" } }, ["filter.issueDate.contains"]));
    await expectCases(api, cases);
  });

  test("wrong value types: numbers for dates, bad calendar dates, date-times without zone, unknown statuses", async ({ api }) => {
    await expectCases(api, [
      f({ issueDate: 20260101 }, ["filter.issueDate"]),
      f({ issueDate: { gt: 20260101 } }, ["filter.issueDate.gt"]),
      f({ issueDate: { equals: "2026-02-30" } }, ["filter.issueDate.equals"]),
      f({ issueDate: "2026-02-30" }, ["filter.issueDate"]),
      f({ expiryDate: { lt: "2025-02-29" } }, ["filter.expiryDate.lt"]),
      f({ expiryDate: { in: ["2026-01-01", "2026-13-01"] } }, ["filter.expiryDate.in[1]"]),
      f({ issueDate: { notIn: ["2026-1-5"] } }, ["filter.issueDate.notIn[0]"]),
      f({ issueDate: "2026-01-05T00:00:00Z" }, ["filter.issueDate"]),
      f({ issueDate: { gte: "2026/01/05" } }, ["filter.issueDate.gte"]),
      f({ issueDate: { lte: "" } }, ["filter.issueDate.lte"]),
      f({ issueDate: { in: "2026-01-01" } }, ["filter.issueDate.in"]),
      f({ issueDate: true }, ["filter.issueDate"]),
      f({ issueDate: ["2026-01-01"] }, ["filter.issueDate"]),
      f({ createdAt: { gt: "2026-01-01T00:00:00" } }, ["filter.createdAt.gt"]),
      f({ createdAt: { gt: "2026-01-01T00:00:00.123456" } }, ["filter.createdAt.gt"]),
      f({ createdAt: "2026-01-01" }, ["filter.createdAt"]),
      f({ createdAt: { lt: "2026-02-30T00:00:00Z" } }, ["filter.createdAt.lt"]),
      f({ createdAt: { lt: "2026-01-01T25:00:00Z" } }, ["filter.createdAt.lt"]),
      f({ createdAt: { lt: "2026-01-01T12:00:00+25:00" } }, ["filter.createdAt.lt"]),
      f({ updatedAt: { lte: 1767225600000 } }, ["filter.updatedAt.lte"]),
      f({ updatedAt: "yesterday" }, ["filter.updatedAt"]),
      f({ updatedAt: { in: ["2026-01-01T00:00:00Z", "2026-01-01 00:00"] } }, ["filter.updatedAt.in[1]"]),
      f({ status: "revoked" }, ["filter.status"]),
      f({ status: "Draft" }, ["filter.status"]),
      f({ status: "" }, ["filter.status"]),
      f({ status: 1 }, ["filter.status"]),
      f({ status: { equals: "ISSUED" } }, ["filter.status.equals"]),
      f({ status: { in: ["draft", "bogus"] } }, ["filter.status.in[1]"]),
      f({ status: { notIn: ["deleted"] } }, ["filter.status.notIn[0]"]),
      f({ status: { in: "draft" } }, ["filter.status.in"]),
      f({ id: 5 }, ["filter.id"]),
      f({ id: { equals: 5 } }, ["filter.id.equals"]),
      f({ id: { in: "cred_x" } }, ["filter.id.in"]),
      f({ id: { in: ["cred_x", 5] } }, ["filter.id.in[1]"]),
      f({ id: { not: ["cred_x"] } }, ["filter.id.not"]),
      f({ groupId: { notIn: [{ id: "grp_x" }] } }, ["filter.groupId.notIn[0]"]),
      f({ publicId: true }, ["filter.publicId"]),
      f({ recipientId: 1 }, ["filter.recipientId"]),
      f({ "recipient.name": { contains: 5 } }, ["filter.recipient.name.contains"]),
      f({ recipient: { name: { contains: 5 } } }, ["filter.recipient.name.contains"]),
      f({ recipient: { email: { startsWith: ["a"] } } }, ["filter.recipient.email.startsWith"]),
      f({ "recipient.email": { in: ["a@example.com", 1] } }, ["filter.recipient.email.in[1]"]),
      f({ "recipient.name": 42 }, ["filter.recipient.name"]),
      // null only with equals / not (and as the literal), nowhere else.
      f({ "recipient.email": { contains: null } }, ["filter.recipient.email.contains"]),
      f({ expiryDate: { gt: null } }, ["filter.expiryDate.gt"]),
      f({ expiryDate: { in: null } }, ["filter.expiryDate.in"]),
    ]);
  });

  test("null inside in / notIn → the message says to use equals: null", async ({ api }) => {
    await expectCases(api, [
      f({ expiryDate: { in: ["2026-01-01", null] } }, ["filter.expiryDate.in[1]"], { message: /equals/ }),
      f({ expiryDate: { notIn: [null] } }, ["filter.expiryDate.notIn[0]"], { message: /equals/ }),
      f({ recipientId: { in: [null] } }, ["filter.recipientId.in[0]"], { message: /equals/ }),
      f({ recipientId: { notIn: ["rcp_x", null] } }, ["filter.recipientId.notIn[1]"], { message: /equals/ }),
      f({ "recipient.email": { in: [null] } }, ["filter.recipient.email.in[0]"], { message: /equals/ }),
      f({ recipient: { name: { notIn: ["Ada", null] } } }, ["filter.recipient.name.notIn[1]"], { message: /equals/ }),
      f({ "recipient.name": { in: [null, "Ada"] } }, ["filter.recipient.name.in[0]"], { message: /equals/ }),
      f({ AND: [{}, { OR: [{ expiryDate: { in: [null] } }] }] }, ["filter.AND[1].OR[0].expiryDate.in[0]"], { message: /equals/ }),
      // On fields that cannot be null at all it is still an error at that member.
      f({ status: { in: [null] } }, ["filter.status.in[0]"]),
      f({ issueDate: { notIn: ["2026-01-01", null] } }, ["filter.issueDate.notIn[1]"]),
      f({ id: { in: [null] } }, ["filter.id.in[0]"]),
    ]);
  });

  test("null for a field that cannot be null", async ({ api }) => {
    const cases: Case[] = [];
    for (const field of ["id", "publicId", "groupId", "status", "issueDate", "createdAt", "updatedAt"]) {
      cases.push(f({ [field]: null }, [`filter.${field}`]));
      cases.push(f({ [field]: { equals: null } }, [`filter.${field}.equals`]));
      cases.push(f({ [field]: { not: null } }, [`filter.${field}.not`]));
    }
    await expectCases(api, cases);
  });

  test("AND / OR not arrays of objects, NOT not an object or array; paths through nesting", async ({ api }) => {
    await expectCases(api, [
      f({ AND: { status: "draft" } }, ["filter.AND"]),
      f({ OR: { status: "draft" } }, ["filter.OR"]),
      f({ AND: "status" }, ["filter.AND"]),
      f({ OR: null }, ["filter.OR"]),
      f({ AND: null }, ["filter.AND"]),
      f({ OR: 1 }, ["filter.OR"]),
      f({ AND: [1] }, ["filter.AND[0]"]),
      f({ AND: [{}, null] }, ["filter.AND[1]"]),
      f({ OR: [{}, []] }, ["filter.OR[1]"]),
      f({ OR: [{ status: "draft" }, "issued"] }, ["filter.OR[1]"]),
      f({ NOT: "draft" }, ["filter.NOT"]),
      f({ NOT: null }, ["filter.NOT"]),
      f({ NOT: 0 }, ["filter.NOT"]),
      f({ NOT: [{}, 5] }, ["filter.NOT[1]"]),
      f({ NOT: [[]] }, ["filter.NOT[0]"]),
      f({ AND: [{ status: "draft" }, { issueDate: { gt: "2026-02-30" } }] }, ["filter.AND[1].issueDate.gt"]),
      f({ OR: [{ NOT: { recipient: { name: { gt: "a" } } } }] }, ["filter.OR[0].NOT.recipient.name.gt"]),
      f({ NOT: [{ status: "x" }] }, ["filter.NOT[0].status"]),
      f({ NOT: { status: "x" } }, ["filter.NOT.status"]),
      f({ AND: [{ OR: [{ foo: 1 }] }] }, ["filter.AND[0].OR[0].foo"]),
      f({ AND: [{ OR: [{}, { NOT: [{}, { id: { contains: "x" } }] }] }] }, ["filter.AND[0].OR[1].NOT[1].id.contains"]),
      f({ status: "draft", AND: [{ "recipient.email": { in: ["a@example.com", 3] } }] }, ["filter.AND[0].recipient.email.in[1]"]),
    ]);
  });

  test("several mistakes at once: one detail for each", async ({ api }) => {
    await expectCases(api, [
      {
        body: {
          filter: {
            foo: 1,
            issueDate: { gt: "x" },
            AND: [{ status: "y" }, { "recipient.name": { gt: "a" } }],
            NOT: { id: { in: [null] } },
          },
          sort: { property: "name", order: "up" },
          limit: 0,
          extra: true,
        },
        paths: [
          "filter.foo",
          "filter.issueDate.gt",
          "filter.AND[0].status",
          "filter.AND[1].recipient.name.gt",
          "filter.NOT.id.in[0]",
          "sort.property",
          "sort.order",
          "limit",
          "extra",
        ],
        exact: false,
      },
      f({ status: { in: ["draft", "x", "issued", "y"] } }, ["filter.status.in[1]", "filter.status.in[3]"]),
      f({ createdAt: { gt: "nope", lt: "2026-01-01" } }, ["filter.createdAt.gt", "filter.createdAt.lt"]),
    ]);
  });

  test("sort: property and order both required, from their enums", async ({ api }) => {
    await expectCases(api, [
      { body: { sort: { order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "createdAt" } }, paths: ["sort.order"] },
      { body: { sort: {} }, paths: ["sort.property", "sort.order"] },
      { body: { sort: { property: "name", order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "status", order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "recipient.name", order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "CreatedAt", order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "publicId", order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: null, order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: 1, order: "asc" } }, paths: ["sort.property"] },
      { body: { sort: { property: "createdAt", order: "ascending" } }, paths: ["sort.order"] },
      { body: { sort: { property: "createdAt", order: "ASC" } }, paths: ["sort.order"] },
      { body: { sort: { property: "createdAt", order: null } }, paths: ["sort.order"] },
      { body: { sort: { property: "createdAt", order: -1 } }, paths: ["sort.order"] },
      { body: { sort: { property: "id", order: "asc", nulls: "first" } }, paths: ["sort.nulls"] },
    ]);
    for (const sort of [
      { property: "id", order: "asc" },
      { property: "updatedAt", order: "desc" },
      { property: "expiryDate", order: "asc" },
    ]) {
      await searchPage(api, { sort });
    }
  });

  test("limit: integers 1..100 only", async ({ api }) => {
    await expectCases(
      api,
      [0, 101, -1, 1.5, 1e3, "20", "", false, [20], { n: 20 }, Number.MAX_SAFE_INTEGER + 2].map((limit) => ({
        body: { limit },
        paths: ["limit"],
      })),
    );
  });

  test("cursor: garbled, tampered, foreign, or from another search → validation_error at cursor", async ({ api }) => {
    const group = await newGroup(api);
    for (let i = 0; i < 4; i++)
      await postJson(api, "/v1/credentials", { groupId: group.id, recipient: { name: `N${i}`, email: `n${i}@example.com` } }, 201);
    const filter = { groupId: group.id, "recipient.name": { startsWith: "n" } };
    const sort = { property: "issueDate", order: "asc" };
    const first = await searchPage(api, { filter, sort, limit: 1 });
    const good = first.pagination.next!;
    expect(good).toEqual(expect.any(String));

    const flip = (s: string, at: number) => {
      let i = at;
      while (s[i] === "." || s[i] === "=") i++;
      return s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    };
    const bad: unknown[] = [
      "abc",
      "!!!",
      "",
      " ",
      `${good}x`,
      `x${good}`,
      good.slice(0, -2),
      good.slice(2),
      flip(good, Math.floor(good.length / 3)),
      flip(good, Math.floor(good.length / 2)),
      flip(good, good.length - 3),
      good.toUpperCase(),
      Buffer.from(JSON.stringify({ id: first.data[0]!.id, d: "next" })).toString("base64url"),
      123,
      true,
      { cursor: good },
      [good],
    ];
    for (const cursor of bad) {
      await expectCases(api, [{ body: { filter, sort, cursor, limit: 1 }, paths: ["cursor"] }]);
      if (typeof cursor === "string") await expectCases(api, [{ body: { cursor }, paths: ["cursor"] }]);
    }

    // Used with another search: a different filter, another sort, another order.
    await expectCases(api, [
      { body: { filter: { groupId: group.id }, sort, cursor: good }, paths: ["cursor"] },
      { body: { filter: { ...filter, status: "draft" }, sort, cursor: good }, paths: ["cursor"] },
      { body: { filter: { groupId: group.id, "recipient.name": { startsWith: "m" } }, sort, cursor: good }, paths: ["cursor"] },
      { body: { filter: {}, sort, cursor: good }, paths: ["cursor"] },
      { body: { filter, sort: { property: "issueDate", order: "desc" }, cursor: good }, paths: ["cursor"] },
      { body: { filter, sort: { property: "createdAt", order: "asc" }, cursor: good }, paths: ["cursor"] },
      { body: { sort: { property: "id", order: "asc" }, cursor: good }, paths: ["cursor"] },
    ]);

    // Cursors of other lists, and a search cursor given to a list.
    const listCursor = (await expectStatus(await api.get("/v1/credentials?limit=1"), 200)).pagination.next as string;
    expect(listCursor).toEqual(expect.any(String));
    await expectCases(api, [{ body: { cursor: listCursor }, paths: ["cursor"] }]);
    await newGroup(api);
    const groupsCursor = (await expectStatus(await api.get("/v1/groups?limit=1"), 200)).pagination.next as string;
    await expectCases(api, [{ body: { cursor: groupsCursor }, paths: ["cursor"] }]);
    await expectError(await api.get(`/v1/credentials?cursor=${encodeURIComponent(good)}`), 400, "validation_error", { paths: ["cursor"] });

    // The good cursor still works, with or without its search repeated, and in the nested spelling.
    const next = (await searchPage(api, { cursor: good, limit: 1 })).data;
    expect(next.length).toBe(1);
    expect((await searchPage(api, { filter, sort, cursor: good, limit: 1 })).data).toEqual(next);
    const nested = { recipient: { name: { startsWith: "n" } }, groupId: group.id };
    expect((await searchPage(api, { filter: nested, sort: { order: "asc", property: "issueDate" }, cursor: good, limit: 1 })).data).toEqual(
      next,
    );
  });

  test("bad input reads nothing and writes nothing: a 400 has no data", async ({ api }) => {
    const group = await newGroup(api);
    const c: Credential = await postJson(api, "/v1/credentials", { groupId: group.id, recipient: { name: "Ada" } }, 201);
    const res = await postSearch(api, { filter: { id: c.id, foo: 1 } });
    const body = await expectError(res, 400, "validation_error", { paths: ["filter.foo"], exactPaths: true });
    expect(JSON.stringify(body)).not.toContain(c.id.slice(5));
    expect(await expectStatus(await api.get(`/v1/credentials/${c.id}`), 200)).toEqual(c);
  });
});

test.describe("POST /v1/credentials/search: the checks of every /v1 request", () => {
  test("Service-Version missing → 400 missing_version; wrong → invalid_version (before the token and the body)", async ({
    client,
    org,
  }) => {
    await expectError(await (await client({ version: null, token: org.token })).post(SEARCH, { data: {} }), 400, "missing_version");
    await expectError(await (await client({ version: null })).post(SEARCH, { data: { foo: 1 } }), 400, "missing_version");
    await expectError(await (await client({ version: "2024-01-01", token: org.token })).post(SEARCH, { data: {} }), 400, "invalid_version");
  });

  test("no, unknown or malformed token → 401 unauthorized (before the body is validated)", async ({ client }) => {
    for (const token of [undefined, "nonsense", "cis_0000000000000000000000000000000000000000"]) {
      const c = await client(token === undefined ? {} : { token });
      await expectError(await c.post(SEARCH, { data: {} }), 401, "unauthorized");
      await expectError(await c.post(SEARCH, { data: { filter: { foo: 1 } } }), 401, "unauthorized");
    }
    const basic = await client({ headers: { Authorization: "Basic dXNlcjpwYXNz" } });
    await expectError(await basic.post(SEARCH, { data: {} }), 401, "unauthorized");
  });

  test("a body that is not a JSON object → 400 invalid_json; over 1 MiB → 413", async ({ api }) => {
    for (const raw of ["{", "not json", "[]", '"filter"', "1", "null", '[{"filter":{}}]']) {
      await expectError(await api.post(SEARCH, { data: raw, headers: { "Content-Type": "application/json" } }), 400, "invalid_json");
    }
    const huge = { filter: { id: { in: Array.from({ length: 120_000 }, (_, i) => `cred_${i.toString().padStart(8, "0")}`) } } };
    expect(JSON.stringify(huge).length).toBeGreaterThan(1024 * 1024);
    await expectError(await postSearch(api, huge), 413, "payload_too_large");
  });

  test("GET /v1/credentials/search → 405 method_not_allowed with Allow: POST", async ({ api }) => {
    const res = await api.get(SEARCH);
    await expectError(res, 405, "method_not_allowed");
    expect(res.headers()["allow"] ?? "").toMatch(/\bPOST\b/);
  });
});
