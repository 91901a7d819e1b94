// GET/POST /v1/attributes (docs/api.md, Clients written for the hosted API): a bare array, the built-in attributes first, then
// the organization's custom attributes by tag, defined or used by a design, a group's email template
// or a credential.
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { certificateDocument, createDesign, createGroup, expectError, expectStatus } from "../support/api-helpers";
import { execSql } from "../support/databases";

type Attribute = { tag: string; name: string; isDefault: boolean };

const BUILTIN_TAGS = [
  "recipient.name",
  "recipient.email",
  "group.name",
  "organization.name",
  "credential.issueDate",
  "credential.expiryDate",
  "credential.id",
  "credential.publicId",
  "credential.url",
];

async function attributes(api: APIRequestContext): Promise<Attribute[]> {
  const res = await api.get("/v1/attributes");
  const body = await expectStatus(res, 200);
  expect(Array.isArray(body), JSON.stringify(body).slice(0, 300)).toBe(true);
  return body as Attribute[];
}

async function customOnes(api: APIRequestContext): Promise<Attribute[]> {
  return (await attributes(api)).filter((a) => !a.isDefault);
}

test("a new organization lists exactly the built-in attributes, in order, as a bare array", async ({ api }) => {
  const list = await attributes(api);
  expect(list.map((a) => a.tag)).toEqual(BUILTIN_TAGS);
  for (const a of list) {
    expect(Object.keys(a).sort()).toEqual(["isDefault", "name", "tag"]);
    expect(a.isDefault).toBe(true);
    expect(a.name.length).toBeGreaterThan(0);
  }
  expect(list.find((a) => a.tag === "recipient.name")!.name).toBe("Recipient name");
});

test("POST defines a custom attribute: 201 with it, listed after the built-in ones, ordered by tag", async ({ api }) => {
  const created = await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.grade", name: "Grade" } }), 201);
  expect(created).toEqual({ tag: "custom.grade", name: "Grade", isDefault: false });
  await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.Award_level-2", name: "  Award level  " } }), 201);
  const list = await attributes(api);
  expect(list.slice(0, BUILTIN_TAGS.length).map((a) => a.tag)).toEqual(BUILTIN_TAGS);
  expect(list.slice(BUILTIN_TAGS.length)).toEqual([
    { tag: "custom.Award_level-2", name: "Award level", isDefault: false },
    { tag: "custom.grade", name: "Grade", isDefault: false },
  ]);
});

test("a duplicate tag → 400 validation_error on tag, the first definition kept", async ({ api }) => {
  await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.grade", name: "Grade" } }), 201);
  await expectError(await api.post("/v1/attributes", { data: { tag: "custom.grade", name: "Other" } }), 400, "validation_error", {
    paths: ["tag"],
    exactPaths: true,
  });
  expect(await customOnes(api)).toEqual([{ tag: "custom.grade", name: "Grade", isDefault: false }]);
});

test("bad tags, names and bodies → 400 with the field named, nothing written", async ({ api }) => {
  const bad: [Record<string, unknown>, string[]][] = [
    [{ tag: "grade", name: "Grade" }, ["tag"]],
    [{ tag: "custom.", name: "Grade" }, ["tag"]],
    [{ tag: "custom.has space", name: "Grade" }, ["tag"]],
    [{ tag: "custom.a.b", name: "Grade" }, ["tag"]],
    [{ tag: `custom.${"x".repeat(65)}`, name: "Grade" }, ["tag"]],
    [{ tag: "recipient.name", name: "Name" }, ["tag"]],
    [{ tag: "custom.ok", name: "" }, ["name"]],
    [{ tag: "custom.ok", name: "   " }, ["name"]],
    [{ tag: "custom.ok", name: "x".repeat(101) }, ["name"]],
    [{ tag: "custom.ok", name: "two\nlines" }, ["name"]],
    [{ tag: "custom.ok" }, ["name"]],
    [{ name: "Grade" }, ["tag"]],
    [{ tag: 5, name: "Grade" }, ["tag"]],
    [{ tag: "custom.ok", name: "Grade", isDefault: true }, ["isDefault"]],
  ];
  for (const [data, paths] of bad) {
    await expectError(await api.post("/v1/attributes", { data }), 400, "validation_error", { paths });
  }
  await expectError(
    await api.post("/v1/attributes", { data: "[1]", headers: { "Content-Type": "application/json" } }),
    400,
    "invalid_json",
  );
  expect(await customOnes(api)).toEqual([]);
});

test("two POSTs of one tag at once: one 201, the other a validation_error, never a 500", async ({ api }) => {
  for (let round = 0; round < 3; round++) {
    const tag = `custom.race${round}`;
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api.post("/v1/attributes", { data: { tag, name: `Name ${i}` } })),
    );
    const statuses = responses.map((r) => r.status()).sort();
    expect(statuses).toEqual([201, 400, 400, 400]);
    for (const r of responses) if (r.status() === 400) await expectError(r, 400, "validation_error", { paths: ["tag"] });
  }
  expect((await customOnes(api)).map((a) => a.tag)).toEqual(["custom.race0", "custom.race1", "custom.race2"]);
});

test("tags used by a design, a group's email template and a credential appear, named by the tag", async ({ api }) => {
  const design = await createDesign(api, "certificate", {
    document: certificateDocument([
      {
        type: "text",
        x: 40,
        y: 120,
        width: 500,
        height: 40,
        text: "Grade: [custom.grade] / [custom.grade]",
        font: { family: "Inter", size: 18 },
      },
    ]),
  });
  expect((await customOnes(api)).map((a) => a.tag)).toEqual(["custom.grade"]);

  const group = await createGroup(api, {
    designIds: [design.id],
    emailTemplate: { subject: "Your [custom.course_code] certificate", html: "<p>[custom.mentor]</p>", text: null },
  });
  const credential = await expectStatus(
    await api.post("/v1/credentials", {
      data: { groupId: group.id, recipient: { name: "Ada" }, customAttributes: { "custom.score": "97", "custom.empty": null } },
    }),
    201,
  );
  // An update adds the tags it sends.
  await expectStatus(await api.patch(`/v1/credentials/${credential.id}`, { data: { customAttributes: { "custom.updated": "yes" } } }), 200);
  // A design update too.
  await expectStatus(
    await api.patch(`/v1/designs/${design.id}`, {
      data: {
        document: certificateDocument([
          { type: "text", x: 40, y: 120, width: 500, height: 40, text: "[custom.zeta]", font: { family: "Inter", size: 18 } },
        ]),
      },
    }),
    200,
  );

  expect(await customOnes(api)).toEqual([
    { tag: "custom.course_code", name: "course_code", isDefault: false },
    { tag: "custom.empty", name: "empty", isDefault: false },
    { tag: "custom.grade", name: "grade", isDefault: false },
    { tag: "custom.mentor", name: "mentor", isDefault: false },
    { tag: "custom.score", name: "score", isDefault: false },
    { tag: "custom.updated", name: "updated", isDefault: false },
    { tag: "custom.zeta", name: "zeta", isDefault: false },
  ]);

  // A used tag already exists: defining it again is a duplicate, whichever kind of use made it, and
  // nothing changes (its name stays the tag's).
  for (const tag of ["custom.grade", "custom.course_code", "custom.mentor", "custom.score", "custom.updated", "custom.zeta"]) {
    await expectError(await api.post("/v1/attributes", { data: { tag, name: "Renamed" } }), 400, "validation_error", {
      paths: ["tag"],
      exactPaths: true,
    });
  }
  expect((await customOnes(api)).map((a) => a.name)).toEqual(["course_code", "empty", "grade", "mentor", "score", "updated", "zeta"]);
  // A defined tag keeps its name when it is used afterwards.
  await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.final", name: "Final score" } }), 201);
  await expectStatus(
    await api.post("/v1/credentials", {
      data: { groupId: group.id, recipient: { name: "Bo" }, customAttributes: { "custom.final": "50" } },
    }),
    201,
  );
  expect((await customOnes(api)).find((a) => a.tag === "custom.final")!.name).toBe("Final score");
});

test("a tag used only by data written before uses were recorded is a duplicate too", async ({ api, org, server }) => {
  const group = await createGroup(api, { designIds: [(await createDesign(api, "certificate")).id] });
  await expectStatus(
    await api.post("/v1/credentials", {
      data: { groupId: group.id, recipient: { name: "Ada" }, customAttributes: { "custom.legacy": "x" } },
    }),
    201,
  );
  const orgId = `(SELECT "id" FROM "Organization" WHERE "slug" = '${org.slug}')`;
  await execSql(server.databaseUrl, `DELETE FROM "CustomAttribute" WHERE "organizationId" = ${orgId}`);
  await execSql(server.databaseUrl, `UPDATE "Organization" SET "customAttributesIndexed" = false WHERE "slug" = '${org.slug}'`);
  await expectError(await api.post("/v1/attributes", { data: { tag: "custom.legacy", name: "Legacy" } }), 400, "validation_error", {
    paths: ["tag"],
    exactPaths: true,
  });
  expect(await customOnes(api)).toEqual([{ tag: "custom.legacy", name: "legacy", isDefault: false }]);
});

test("a refused write records no tag", async ({ api }) => {
  await expectError(
    await api.post("/v1/credentials", {
      data: { groupId: "grp_nope", recipient: { name: "Ada" }, customAttributes: { "custom.ghost": "1" } },
    }),
    400,
    "validation_error",
    { paths: ["groupId"] },
  );
  expect(await customOnes(api)).toEqual([]);
});

test("one organization never sees another's attributes", async ({ api, newOrg, client }) => {
  await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.secret", name: "Secret" } }), 201);
  const other = await newOrg();
  const otherApi = await client({ token: other.token });
  expect(await customOnes(otherApi)).toEqual([]);
  // The same tag is free for the other organization.
  await expectStatus(await otherApi.post("/v1/attributes", { data: { tag: "custom.secret", name: "Theirs" } }), 201);
  expect((await customOnes(api))[0]!.name).toBe("Secret");
});

test("GET /v1/attributes goes through the same request checks", async ({ client, org }) => {
  await expectError(await (await client({ token: org.token, version: null })).get("/v1/attributes"), 400, "missing_version");
  await expectError(await (await client()).get("/v1/attributes"), 401, "unauthorized");
  const res = await (await client({ token: org.token })).delete("/v1/attributes");
  expect(res.status()).toBe(405);
});

test("data written before uses were recorded is found once, on the first list (lazy backfill)", async ({ api, org, server }) => {
  const design = await createDesign(api, "certificate", {
    document: certificateDocument([
      { type: "text", x: 40, y: 120, width: 500, height: 40, text: "[custom.old_design]", font: { family: "Inter", size: 18 } },
    ]),
  });
  const group = await createGroup(api, { designIds: [design.id], emailTemplate: { subject: "[custom.old_subject]" } });
  await expectStatus(
    await api.post("/v1/credentials", {
      data: { groupId: group.id, recipient: { name: "Ada" }, customAttributes: { "custom.old_value": "x" } },
    }),
    201,
  );
  await expectStatus(await api.post("/v1/attributes", { data: { tag: "custom.defined", name: "Defined" } }), 201);
  // As an organization from before the CustomAttribute table: no used-tag rows, not indexed yet.
  const orgId = `(SELECT "id" FROM "Organization" WHERE "slug" = '${org.slug}')`;
  await execSql(server.databaseUrl, `DELETE FROM "CustomAttribute" WHERE "organizationId" = ${orgId} AND "defined" = false`);
  await execSql(server.databaseUrl, `UPDATE "Organization" SET "customAttributesIndexed" = false WHERE "slug" = '${org.slug}'`);

  const expected = [
    { tag: "custom.defined", name: "Defined", isDefault: false },
    { tag: "custom.old_design", name: "old_design", isDefault: false },
    { tag: "custom.old_subject", name: "old_subject", isDefault: false },
    { tag: "custom.old_value", name: "old_value", isDefault: false },
  ];
  const [first, second] = await Promise.all([customOnes(api), customOnes(api)]);
  expect(first).toEqual(expected);
  expect(second).toEqual(expected);
  expect(await customOnes(api)).toEqual(expected);
});
