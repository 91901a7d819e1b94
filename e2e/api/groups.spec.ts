// Groups (credential templates): docs/api.md, Groups and designs.
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { createDesign, createGroup, expectError, expectStatus, listAll, type Group } from "../support/api-helpers";

// The spec's Group fields (the service may add its own, e.g. settings for later features).
const GROUP_KEYS = ["createdAt", "designIds", "id", "learningEventUrl", "name", "updatedAt"];
const LEGACY = ["badgeDesignId", "certificateDesignId"];

/** Every spec field present; the legacy fields present exactly when `legacy`. */
function expectShape(group: Group, legacy: boolean) {
  const keys = Object.keys(group);
  expect(keys).toEqual(expect.arrayContaining(GROUP_KEYS));
  for (const k of LEGACY) expect(keys.includes(k), `${k} ${legacy ? "present" : "absent"} in ${JSON.stringify(group)}`).toBe(legacy);
}
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

async function designs(api: APIRequestContext) {
  const [c1, c2, b1, b2] = await Promise.all([
    createDesign(api, "certificate"),
    createDesign(api, "certificate"),
    createDesign(api, "badge"),
    createDesign(api, "badge"),
  ]);
  return { c1: c1.id, c2: c2.id, b1: b1.id, b2: b2.id };
}

async function get(api: APIRequestContext, id: string): Promise<Group> {
  return expectStatus(await api.get(`/v1/groups/${id}`), 200);
}

/** Asserts that a failed write left the group exactly as it was. */
async function expectUnchanged(api: APIRequestContext, before: Group) {
  expect(await get(api, before.id)).toEqual(before);
}

test.describe("create with designIds", () => {
  test("201 with every field, no legacy fields; readable by get and list", async ({ api }) => {
    const d = await designs(api);
    const res = await api.post("/v1/groups", { data: { name: "Data Analysis", designIds: [d.b1, d.c1, d.c2] } });
    const group: Group = await expectStatus(res, 201);
    expectShape(group, false);
    expect(group.id).toEqual(expect.any(String));
    expect(group.name).toBe("Data Analysis");
    expect(group.designIds).toEqual([d.b1, d.c1, d.c2]);
    expect(group.learningEventUrl).toBeNull();
    expect(group.createdAt).toMatch(ISO);
    expect(group.updatedAt).toMatch(ISO);
    expect(await get(api, group.id)).toEqual(group);
    expect(await listAll(api, "/v1/groups")).toEqual([group]);
  });

  test("learningEventUrl http(s) is stored", async ({ api }) => {
    const d = await designs(api);
    for (const url of ["https://example.com/course?id=1#x", "http://learn.example.org/a/b"]) {
      const group = await createGroup(api, { designIds: [d.c1], learningEventUrl: url });
      expect(group.learningEventUrl).toBe(url);
    }
  });

  test("designIds: empty, over 50, duplicates, unknown ids → validation_error at the path; nothing created", async ({ api }) => {
    const d = await designs(api);
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: [] } }), 400, "validation_error", {
      paths: ["designIds"],
    });
    const fiftyOne = Array.from({ length: 51 }, (_, i) => `dsn_fake_${i}`);
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: fiftyOne } }), 400, "validation_error", {
      paths: ["designIds"],
    });
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: [d.c1, d.b1, d.c1] } }), 400, "validation_error", {
      paths: ["designIds[2]"],
      exactPaths: true,
    });
    await expectError(
      await api.post("/v1/groups", { data: { name: "g", designIds: [d.c1, "dsn_unknown", d.b1, "also-unknown"] } }),
      400,
      "validation_error",
      {
        paths: ["designIds[1]", "designIds[3]"],
        exactPaths: true,
      },
    );
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: "not-an-array" } }), 400, "validation_error", {
      paths: ["designIds"],
    });
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: [d.c1, null] } }), 400, "validation_error", {
      paths: ["designIds[1]"],
    });
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });

  test("a design of another organization → validation_error at designIds[i], not 404; nothing created", async ({ api, newOrg, client }) => {
    const mine = await createDesign(api, "certificate");
    const other = await client({ token: (await newOrg()).token });
    const theirs = await createDesign(other, "badge");
    await expectError(await api.post("/v1/groups", { data: { name: "g", designIds: [mine.id, theirs.id] } }), 400, "validation_error", {
      paths: ["designIds[1]"],
      exactPaths: true,
    });
    await expectError(
      await api.post("/v1/groups", { data: { name: "g", certificateDesignId: mine.id, badgeDesignId: theirs.id } }),
      400,
      "validation_error",
      {
        paths: ["badgeDesignId"],
      },
    );
    expect(await listAll(api, "/v1/groups")).toEqual([]);
    expect(await listAll(other, "/v1/groups")).toEqual([]);
  });

  test("exactly 50 designs are accepted, in order", async ({ api }) => {
    test.setTimeout(60_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => createDesign(api, (i + j) % 2 ? "badge" : "certificate")));
      ids.push(...batch.map((x) => x.id));
    }
    const group = await createGroup(api, { designIds: ids });
    expect(group.designIds).toEqual(ids);
  });

  test("name: missing, empty, too long, wrong type → validation_error at name", async ({ api }) => {
    const d = await designs(api);
    for (const name of [undefined, "", "   ", "x".repeat(201), 42, null, { en: "x" }]) {
      await expectError(await api.post("/v1/groups", { data: { name, designIds: [d.c1] } }), 400, "validation_error", { paths: ["name"] });
    }
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });

  test("learningEventUrl not an absolute http(s) URL → validation_error; nothing created", async ({ api }) => {
    const d = await designs(api);
    for (const url of [
      "example.com/course",
      "/courses/1",
      "ftp://example.com/x",
      "javascript:alert(1)",
      "mailto:a@example.com",
      "https://",
      "",
      "http//x.y",
      7,
    ]) {
      await expectError(
        await api.post("/v1/groups", { data: { name: "g", designIds: [d.c1], learningEventUrl: url } }),
        400,
        "validation_error",
        {
          paths: ["learningEventUrl"],
        },
      );
    }
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });

  test("neither designIds nor a legacy id → validation_error at designIds", async ({ api }) => {
    await expectError(await api.post("/v1/groups", { data: { name: "g" } }), 400, "validation_error", { paths: ["designIds"] });
  });
});

test.describe("legacy certificateDesignId / badgeDesignId", () => {
  test("legacy create: legacy fields present, first design of each type; designIds in slot order", async ({ api }) => {
    const d = await designs(api);
    const both = await createGroup(api, { certificateDesignId: d.c1, badgeDesignId: d.b1 });
    expectShape(both, true);
    expect(both.designIds).toEqual([d.c1, d.b1]);
    expect(both.certificateDesignId).toBe(d.c1);
    expect(both.badgeDesignId).toBe(d.b1);
    expect(await get(api, both.id)).toEqual(both);

    const certOnly = await createGroup(api, { certificateDesignId: d.c2 });
    expect(certOnly.designIds).toEqual([d.c2]);
    expect(certOnly.certificateDesignId).toBe(d.c2);
    expect(certOnly.badgeDesignId).toBeNull();

    const badgeOnly = await createGroup(api, { badgeDesignId: d.b2 });
    expect(badgeOnly.designIds).toEqual([d.b2]);
    expect(badgeOnly.certificateDesignId).toBeNull();
    expect(badgeOnly.badgeDesignId).toBe(d.b2);

    const listed = await listAll<Group>(api, "/v1/groups");
    expect(listed.find((g) => g.id === both.id)).toEqual(both);
  });

  test("both shapes in one request → validation_error; nothing created", async ({ api }) => {
    const d = await designs(api);
    await expectError(
      await api.post("/v1/groups", { data: { name: "g", designIds: [d.c1], certificateDesignId: d.c1 } }),
      400,
      "validation_error",
      {
        paths: ["certificateDesignId"],
      },
    );
    await expectError(
      await api.post("/v1/groups", { data: { name: "g", designIds: [d.b1], badgeDesignId: d.b1 } }),
      400,
      "validation_error",
      {
        paths: ["badgeDesignId"],
      },
    );
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });

  test("a legacy id of the wrong type or unknown → validation_error at that field; nothing created", async ({ api }) => {
    const d = await designs(api);
    await expectError(await api.post("/v1/groups", { data: { name: "g", certificateDesignId: d.b1 } }), 400, "validation_error", {
      paths: ["certificateDesignId"],
      exactPaths: true,
    });
    await expectError(await api.post("/v1/groups", { data: { name: "g", badgeDesignId: d.c1 } }), 400, "validation_error", {
      paths: ["badgeDesignId"],
      exactPaths: true,
    });
    await expectError(
      await api.post("/v1/groups", { data: { name: "g", certificateDesignId: d.c1, badgeDesignId: "dsn_nope" } }),
      400,
      "validation_error",
      {
        paths: ["badgeDesignId"],
        exactPaths: true,
      },
    );
    await expectError(await api.post("/v1/groups", { data: { name: "g", certificateDesignId: null } }), 400, "validation_error", {
      paths: ["certificateDesignId"],
    });
    expect(await listAll(api, "/v1/groups")).toEqual([]);
  });
});

test.describe("update", () => {
  test("partial updates leave the other fields unchanged", async ({ api }) => {
    const d = await designs(api);
    const created = await createGroup(api, { name: "Original", designIds: [d.c1, d.b1], learningEventUrl: "https://example.com/a" });

    const renamed: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { name: "Renamed" } }), 200);
    expect(renamed).toEqual({ ...created, name: "Renamed", updatedAt: renamed.updatedAt });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const moved: Group = await expectStatus(
      await api.patch(`/v1/groups/${created.id}`, { data: { learningEventUrl: "http://example.org/b" } }),
      200,
    );
    expect(moved).toEqual({ ...renamed, learningEventUrl: "http://example.org/b", updatedAt: moved.updatedAt });

    const redesigned: Group = await expectStatus(
      await api.patch(`/v1/groups/${created.id}`, { data: { designIds: [d.b2, d.c2, d.c1] } }),
      200,
    );
    expect(redesigned).toEqual({ ...moved, designIds: [d.b2, d.c2, d.c1], updatedAt: redesigned.updatedAt });
    expectShape(redesigned, false);

    const noop: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: {} }), 200);
    expect(noop).toEqual(redesigned);
    expect(await get(api, created.id)).toEqual(redesigned);
  });

  test("PATCH learningEventUrl: null clears it", async ({ api }) => {
    const d = await designs(api);
    const created = await createGroup(api, { designIds: [d.c1], learningEventUrl: "https://example.com/a" });
    const cleared: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { learningEventUrl: null } }), 200);
    expect(cleared.learningEventUrl).toBeNull();
    expect(cleared.designIds).toEqual([d.c1]);
    expect((await get(api, created.id)).learningEventUrl).toBeNull();
  });

  test("PATCH legacy: one slot changes, the other keeps the group's current design of its type", async ({ api }) => {
    const d = await designs(api);
    const created = await createGroup(api, { certificateDesignId: d.c1, badgeDesignId: d.b1 });

    const badge: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { badgeDesignId: d.b2 } }), 200);
    expect(badge.designIds).toEqual([d.c1, d.b2]);
    expect(badge.certificateDesignId).toBe(d.c1);
    expect(badge.badgeDesignId).toBe(d.b2);

    const cert: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { certificateDesignId: d.c2 } }), 200);
    expect(cert.designIds).toEqual([d.c2, d.b2]);
    expect(cert.certificateDesignId).toBe(d.c2);
    expect(cert.badgeDesignId).toBe(d.b2);
    expect(await get(api, created.id)).toEqual(cert);
  });

  test("PATCH legacy on a designIds group adds the legacy fields; PATCH designIds removes them", async ({ api }) => {
    const d = await designs(api);
    const created = await createGroup(api, { designIds: [d.b1, d.c1, d.c2] });
    expect(created.certificateDesignId).toBeUndefined();

    const legacy: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { badgeDesignId: d.b2 } }), 200);
    expectShape(legacy, true);
    expect(legacy.badgeDesignId).toBe(d.b2);
    expect(legacy.certificateDesignId).toBe(d.c1); // the first certificate of the list kept its slot
    expect(legacy.designIds).toEqual([d.c1, d.b2]);

    // Renaming does not touch the designs' shape.
    const renamed: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { name: "Still legacy" } }), 200);
    expectShape(renamed, true);

    const modern: Group = await expectStatus(await api.patch(`/v1/groups/${created.id}`, { data: { designIds: [d.c2, d.b1] } }), 200);
    expectShape(modern, false);
    expect(modern.designIds).toEqual([d.c2, d.b1]);
    expectShape(await get(api, created.id), false);
  });

  test("invalid PATCHes → validation_error at the path, group unchanged", async ({ api, newOrg, client }) => {
    const d = await designs(api);
    const group = await createGroup(api, { designIds: [d.c1, d.b1], learningEventUrl: "https://example.com/x" });
    const theirs = await createDesign(await client({ token: (await newOrg()).token }), "certificate");
    const cases: [Record<string, unknown>, string][] = [
      [{ designIds: [d.c2], certificateDesignId: d.c2 }, "certificateDesignId"],
      [{ designIds: [] }, "designIds"],
      [{ designIds: [d.c1, d.c1] }, "designIds[1]"],
      [{ designIds: [d.c2, "dsn_missing"] }, "designIds[1]"],
      [{ designIds: [theirs.id] }, "designIds[0]"],
      [{ certificateDesignId: d.b2 }, "certificateDesignId"],
      [{ badgeDesignId: d.c2 }, "badgeDesignId"],
      [{ certificateDesignId: theirs.id }, "certificateDesignId"],
      [{ learningEventUrl: "not a url" }, "learningEventUrl"],
      [{ learningEventUrl: "ftp://example.com" }, "learningEventUrl"],
      [{ name: "" }, "name"],
      [{ name: null }, "name"],
      [{ id: "grp_other" }, "id"],
      [{ createdAt: "2020-01-01T00:00:00Z" }, "createdAt"],
    ];
    for (const [body, path] of cases) {
      await expectError(await api.patch(`/v1/groups/${group.id}`, { data: body }), 400, "validation_error", { paths: [path] });
    }
    await expectUnchanged(api, group);
  });
});

test.describe("other organizations", () => {
  test("another organization's group answers 404 to get and patch and is not changed or listed", async ({ api, newOrg, client }) => {
    const d = await designs(api);
    const group = await createGroup(api, { designIds: [d.c1] });
    const other = await client({ token: (await newOrg()).token });
    const otherDesign = await createDesign(other, "certificate");

    await expectError(await other.get(`/v1/groups/${group.id}`), 404, "not_found");
    await expectError(await other.patch(`/v1/groups/${group.id}`, { data: { name: "Hijacked" } }), 404, "not_found");
    await expectError(await other.patch(`/v1/groups/${group.id}`, { data: { designIds: [otherDesign.id] } }), 404, "not_found");
    await expectError(await other.patch(`/v1/groups/${group.id}`, { data: { learningEventUrl: null } }), 404, "not_found");
    expect(await listAll(other, "/v1/groups")).toEqual([]);
    await expectUnchanged(api, group);
  });
});

test.describe("delete (docs/api.md, Groups and designs)", () => {
  async function credentialIn(api: APIRequestContext, groupId: string) {
    return expectStatus(await api.post("/v1/credentials", { data: { groupId, recipient: { name: "Ada Lovelace" } } }), 201);
  }

  test("a group no credential uses → 204, then 404; its designs stay", async ({ api }) => {
    const d = await designs(api);
    const group = await createGroup(api, { designIds: [d.c1, d.b1] });
    const res = await api.delete(`/v1/groups/${group.id}`);
    expect(res.status()).toBe(204);
    expect(await res.text()).toBe("");
    await expectError(await api.get(`/v1/groups/${group.id}`), 404, "not_found");
    expect((await listAll<Group>(api, "/v1/groups")).map((g) => g.id)).not.toContain(group.id);
    await expectStatus(await api.get(`/v1/designs/${d.c1}`), 200);
    // A second delete: gone.
    await expectError(await api.delete(`/v1/groups/${group.id}`), 404, "not_found");
    // A credential cannot name it any more.
    await expectError(
      await api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "x" } } }),
      400,
      "validation_error",
      {
        paths: ["groupId"],
      },
    );
  });

  test("a group credentials use → 409 conflict saying how many; nothing deleted", async ({ api }) => {
    const d = await designs(api);
    const group = await createGroup(api, { designIds: [d.c1] });
    const one = await credentialIn(api, group.id);
    await expectError(await api.delete(`/v1/groups/${group.id}`), 409, "conflict", { message: /^1 credential uses this group/ });
    await credentialIn(api, group.id);
    await credentialIn(api, group.id);
    await expectError(await api.delete(`/v1/groups/${group.id}`), 409, "conflict", { message: /^3 credentials use this group/ });
    expect(await get(api, group.id)).toMatchObject({ id: group.id, designIds: [d.c1] });
    await expectStatus(await api.get(`/v1/credentials/${one.id}`), 200);
  });

  test("another organization's group → 404, and it stays", async ({ api, newOrg, client }) => {
    const d = await designs(api);
    const group = await createGroup(api, { designIds: [d.c1] });
    const other = await client({ token: (await newOrg()).token });
    await expectError(await other.delete(`/v1/groups/${group.id}`), 404, "not_found");
    await get(api, group.id);
  });

  test("credentials created while the group is deleted: none points at a deleted group", async ({ api }) => {
    const d = await designs(api);
    for (let round = 0; round < 3; round++) {
      const group = await createGroup(api, { designIds: [d.c1] });
      const creates = Array.from({ length: 4 }, () =>
        api.post("/v1/credentials", { data: { groupId: group.id, recipient: { name: "Racer" } } }),
      );
      const [deleted, ...created] = await Promise.all([api.delete(`/v1/groups/${group.id}`), ...creates]);
      const made = created.filter((r) => r.status() === 201).length;
      for (const r of created) if (r.status() !== 201) await expectError(r, 400, "validation_error", { paths: ["groupId"] });
      if (deleted.status() === 204) {
        expect(made).toBe(0);
        await expectError(await api.get(`/v1/groups/${group.id}`), 404, "not_found");
      } else {
        await expectError(deleted, 409, "conflict");
        expect(made).toBeGreaterThan(0);
        await get(api, group.id);
      }
    }
  });
});

test.describe("description and criteria (docs/api.md, Verifiable credentials)", () => {
  test("always present, null by default; set, trimmed, changed and reset with null; listed too", async ({ api }) => {
    const { c1 } = await designs(api);
    const plain = await createGroup(api, { designIds: [c1] });
    expect(plain).toMatchObject({ description: null, criteria: null });
    const group = await createGroup(api, { designIds: [c1], description: "  What it covers.\nTwo lines.  ", criteria: "Pass the exam." });
    expect(group).toMatchObject({ description: "What it covers.\nTwo lines.", criteria: "Pass the exam." });
    expect(await get(api, group.id)).toMatchObject({ description: "What it covers.\nTwo lines.", criteria: "Pass the exam." });
    const changed = await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { criteria: "Attend." } }), 200);
    expect(changed).toMatchObject({ description: "What it covers.\nTwo lines.", criteria: "Attend." });
    const reset = await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { description: null, criteria: null } }), 200);
    expect(reset).toMatchObject({ description: null, criteria: null });
    const listed = (await listAll<Group & { description: unknown; criteria: unknown }>(api, "/v1/groups")).find((g) => g.id === plain.id)!;
    expect(listed).toMatchObject({ description: null, criteria: null });
  });

  test("bad values: a clear validation error on the field, and nothing written", async ({ api }) => {
    const { c1 } = await designs(api);
    const group = await createGroup(api, { designIds: [c1], description: "Kept.", criteria: "Kept too." });
    const bad: [Record<string, unknown>, string][] = [
      [{ description: "" }, "description"],
      [{ description: "   " }, "description"],
      [{ description: "x".repeat(2001) }, "description"],
      [{ description: 42 }, "description"],
      [{ description: "bell\u0007" }, "description"],
      [{ criteria: "" }, "criteria"],
      [{ criteria: "x".repeat(5001) }, "criteria"],
      [{ criteria: ["a"] }, "criteria"],
    ];
    const before = await expectStatus(await api.get("/v1/groups?limit=100"), 200);
    for (const [body, path] of bad) {
      await expectError(await api.post("/v1/groups", { data: { name: "Bad", designIds: [c1], ...body } }), 400, "validation_error", {
        paths: [path],
      });
      await expectError(await api.patch(`/v1/groups/${group.id}`, { data: body }), 400, "validation_error", { paths: [path] });
    }
    expect(await get(api, group.id)).toEqual(group);
    expect(await expectStatus(await api.get("/v1/groups?limit=100"), 200)).toEqual(before);
    // At the limits: accepted.
    const long = await createGroup(api, { designIds: [c1], description: "d".repeat(2000), criteria: "c".repeat(5000) });
    expect(long.description).toHaveLength(2000);
  });
});

test.describe("language (issue 19: the group fixes the language of its email and wallet page)", () => {
  const ALLOWED = ["en", "es", "fr", "de", "pt-BR", "ar", "zh-Hans", "hi"];

  test("always present, null by default; every supported language set, changed and reset with null; listed too", async ({ api }) => {
    const { c1 } = await designs(api);
    const plain = await createGroup(api, { designIds: [c1] });
    expect(plain.language).toBeNull();
    for (const language of ALLOWED) {
      const group = await createGroup(api, { designIds: [c1], language });
      expect(group.language).toBe(language);
      expect((await get(api, group.id)).language).toBe(language);
    }
    const german = await createGroup(api, { designIds: [c1], language: "de" });
    const arabic = await expectStatus(await api.patch(`/v1/groups/${german.id}`, { data: { language: "ar" } }), 200);
    expect(arabic).toMatchObject({ language: "ar", name: german.name, designIds: german.designIds });
    // A PATCH that does not name the language leaves it as it is.
    expect(await expectStatus(await api.patch(`/v1/groups/${german.id}`, { data: { name: "Renamed" } }), 200)).toMatchObject({
      language: "ar",
    });
    const reset = await expectStatus(await api.patch(`/v1/groups/${german.id}`, { data: { language: null } }), 200);
    expect(reset.language).toBeNull();
    const withNull = await createGroup(api, { designIds: [c1], language: null });
    expect(withNull.language).toBeNull();
    const listed = await listAll<Group>(api, "/v1/groups");
    expect(listed.find((g) => g.id === plain.id)!.language).toBeNull();
    expect(listed.filter((g) => g.language === "hi")).toHaveLength(1);
  });

  test("a language not on the list → validation_error naming the field and the allowed values; nothing written", async ({ api }) => {
    const { c1 } = await designs(api);
    const group = await createGroup(api, { designIds: [c1], language: "fr" });
    const before = await expectStatus(await api.get("/v1/groups?limit=100"), 200);
    for (const language of ["xx", "EN", "pt-br", "pt", "zh", "en-US", "", " de", 42, true, ["de"], { code: "de" }]) {
      for (const res of [
        await api.post("/v1/groups", { data: { name: "Bad", designIds: [c1], language } }),
        await api.patch(`/v1/groups/${group.id}`, { data: { name: "Changed too", language } }),
      ]) {
        const body = await expectError(res, 400, "validation_error", { paths: ["language"], exactPaths: true });
        const message = body.error.details!.find((d) => d.path === "language")!.message;
        for (const code of ALLOWED) expect(message).toContain(code);
      }
    }
    expect(await get(api, group.id)).toEqual(group);
    expect(await expectStatus(await api.get("/v1/groups?limit=100"), 200)).toEqual(before);
  });

  test("the OpenAPI document lists the language and its values", async ({ api }) => {
    const doc = await expectStatus(await api.get("/v1/openapi.json"), 200);
    expect(JSON.stringify(doc)).toContain(JSON.stringify(ALLOWED));
  });
});
