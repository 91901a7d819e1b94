// POST /v1/credentials/search over HTTP (docs/api.md, Search; lib/search/README.md): every operator on
// every field kind, nulls, AND / OR / NOT, case-insensitive and non-ASCII matching, literal % and _,
// sorts, keyset pagination and limits. Each test has its own organization, so its data is all there is.
import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { addDays, allCredentials, getCredential, newGroup, todayUtc, type Credential } from "../support/credentials";
import {
  SEARCH,
  SORT_PROPERTIES,
  formatInstant,
  instantNs,
  postJson,
  postSearch,
  searchIds,
  searchPage,
  sortCredentials,
  walkForward,
  withRateLimit,
  type SearchPage,
  type Sort,
} from "../support/search";

// Dozens of requests per test on servers shared with the other workers.
test.describe.configure({ timeout: 90_000 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Made = Credential & { label: string };

/** The credentials of one test, by label, and the checks against them. */
class Data {
  readonly made: Made[] = [];
  constructor(readonly api: APIRequestContext) {}

  async create(label: string, body: Record<string, unknown>, options: { issue?: boolean } = {}): Promise<Made> {
    let c: Credential = await postJson(this.api, "/v1/credentials", body, 201);
    if (options.issue) c = await postJson(this.api, `/v1/credentials/${c.id}/issue`, undefined, 200);
    const m = { ...c, label };
    this.made.push(m);
    return m;
  }

  /** Re-reads every credential (status, updatedAt and recipient names change after creation). */
  async refresh(): Promise<void> {
    const fresh = new Map((await allCredentials(this.api)).map((c) => [c.id, c]));
    for (const [i, m] of this.made.entries()) {
      const c = fresh.get(m.id);
      if (c) this.made[i] = { ...c, label: m.label };
    }
  }

  get(label: string): Made {
    const m = this.made.find((x) => x.label === label);
    if (!m) throw new Error(`no credential ${label}`);
    return m;
  }

  labels(ids: string[]): string[] {
    return ids.map((id) => this.made.find((m) => m.id === id)?.label ?? `?${id}`);
  }

  /** Search with `filter` (all pages, default sort) finds exactly `expected`, newest first. */
  async expect(filter: unknown, expected: (string | Made)[], sort?: Sort): Promise<void> {
    const wanted = sortCredentials(
      expected.map((e) => (typeof e === "string" ? this.get(e) : e)),
      sort,
    ).map((c) => c.label);
    const ids = await searchIds(this.api, filter, sort ? { sort } : {});
    expect(this.labels(ids), `filter ${JSON.stringify(filter)}${sort ? ` sort ${JSON.stringify(sort)}` : ""}`).toEqual(wanted);
  }

  all(): string[] {
    return this.made.map((m) => m.label);
  }

  except(...labels: string[]): string[] {
    return this.all().filter((l) => !labels.includes(l));
  }
}

test.describe("POST /v1/credentials/search: response and scope", () => {
  test("{data, pagination} of the same objects GET returns; only the caller's live credentials; search writes nothing", async ({
    api,
    newOrg,
    client,
  }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    await d.create("ada", { groupId: group.id, recipient: { name: "Ada Lovelace", email: "ada@example.com" } });
    await d.create(
      "nomail",
      { groupId: group.id, recipient: { name: "No Mail" }, issueDate: "2024-05-01", expiryDate: "2030-01-01" },
      { issue: true },
    );
    const gone = await d.create("gone", { groupId: group.id, recipient: { name: "Gone" } });
    expect((await api.delete(`/v1/credentials/${gone.id}`)).status()).toBe(204);
    d.made.splice(d.made.indexOf(gone), 1);

    const other = await client({ token: (await newOrg()).token });
    const otherGroup = await newGroup(other);
    const foreign: Credential = await postJson(
      other,
      "/v1/credentials",
      { groupId: otherGroup.id, recipient: { name: "Ada Lovelace", email: "ada@example.com" } },
      201,
    );

    const before = sortCredentials(await allCredentials(api));
    expect(before.map((c) => c.id)).toEqual(sortCredentials(d.made).map((c) => c.id));

    for (const body of [
      {},
      { filter: {} },
      { cursor: null },
      { filter: {}, sort: { property: "createdAt", order: "desc" }, limit: 20, cursor: null },
    ]) {
      const page = await searchPage(api, body);
      expect(page.data, JSON.stringify(body)).toEqual(before); // the very objects GET /v1/credentials/{id} returns
      expect(page.pagination).toEqual({ prev: null, next: null });
    }
    for (const c of before) expect(await getCredential(api, c.id)).toEqual(c);

    await d.expect({ id: foreign.id }, []);
    await d.expect({ groupId: otherGroup.id }, []);
    await d.expect({ recipientId: foreign.recipient!.id }, []);
    await d.expect({ id: gone.id }, []);
    await d.expect({ "recipient.name": { contains: "ada" } }, ["ada"]);
    expect((await searchPage(other, { filter: { id: d.get("ada").id } })).data).toEqual([]);

    // Nothing changed: updatedAt and everything else as before.
    expect(sortCredentials(await allCredentials(api))).toEqual(before);
  });
});

test.describe("POST /v1/credentials/search: fields and operators", () => {
  test("identifiers (id, publicId, groupId, recipientId): literal, equals, not, in, notIn; exact, case-sensitive", async ({ api }) => {
    const groupA = await newGroup(api);
    const groupB = await newGroup(api);
    const d = new Data(api);
    const c1 = await d.create("c1", { groupId: groupA.id, recipient: { name: "Ada", email: "ada@example.com" } });
    const c2 = await d.create("c2", { groupId: groupA.id, recipient: { name: "Bea", email: "bea@example.com" } });
    const c3 = await d.create("c3", { groupId: groupB.id, recipient: { name: "Cyd" } });
    const c4 = await d.create("c4", { groupId: groupB.id, recipient: { name: "Ada again", email: "ADA@Example.COM" } });
    expect(c4.recipient!.id).toBe(c1.recipient!.id);
    const r1 = c1.recipient!.id;
    const r2 = c2.recipient!.id;

    for (const field of ["id", "publicId"] as const) {
      await d.expect({ [field]: c1[field] }, ["c1"]);
      await d.expect({ [field]: { equals: c1[field] } }, ["c1"]);
      await d.expect({ [field]: { not: c1[field] } }, ["c2", "c3", "c4"]);
      await d.expect({ [field]: { in: [c1[field], c3[field]] } }, ["c1", "c3"]);
      await d.expect({ [field]: { in: [c1[field], c1[field]] } }, ["c1"]);
      await d.expect({ [field]: { notIn: [c1[field], c3[field]] } }, ["c2", "c4"]);
      await d.expect({ [field]: { in: [c2[field]], not: c2[field] } }, []);
      await d.expect({ [field]: { notIn: [c2[field]], not: c3[field] } }, ["c1", "c4"]);
      await d.expect({ [field]: c1[field].toUpperCase() }, []);
      await d.expect({ [field]: `${c1[field]} ` }, []);
      await d.expect({ [field]: c1[field].slice(0, -1) }, []);
      await d.expect({ [field]: "%" }, []);
      await d.expect({ [field]: { in: [] } }, []);
      await d.expect({ [field]: { notIn: [] } }, d.all());
    }
    await d.expect({ id: "cred_does_not_exist" }, []);
    // "Any string is accepted; an unknown id matches nothing" (lib/search/README.md): long ones too.
    const own = { id: c1.id, publicId: c1.publicId, groupId: c1.groupId, recipientId: r1 };
    const sharing = { id: ["c1"], publicId: ["c1"], groupId: ["c1", "c2"], recipientId: ["c1", "c4"] };
    for (const field of ["id", "publicId", "groupId", "recipientId"] as const) {
      await d.expect({ [field]: "x".repeat(5000) }, []);
      await d.expect({ [field]: { in: [own[field], "y".repeat(5000)] } }, sharing[field]);
      await d.expect({ [field]: "" }, []);
      await d.expect({ [field]: "Zoë ÅSA 100%_" }, []);
    }

    await d.expect({ groupId: groupA.id }, ["c1", "c2"]);
    await d.expect({ groupId: { equals: groupB.id } }, ["c3", "c4"]);
    await d.expect({ groupId: { not: groupA.id } }, ["c3", "c4"]);
    await d.expect({ groupId: { in: [groupA.id, groupB.id] } }, d.all());
    await d.expect({ groupId: { notIn: [groupA.id] } }, ["c3", "c4"]);
    await d.expect({ groupId: groupA.id.toUpperCase() }, []);

    await d.expect({ recipientId: r1 }, ["c1", "c4"]);
    await d.expect({ recipientId: { equals: r2 } }, ["c2"]);
    await d.expect({ recipientId: null }, ["c3"]);
    await d.expect({ recipientId: { equals: null } }, ["c3"]);
    await d.expect({ recipientId: { not: null } }, ["c1", "c2", "c4"]);
    // Two-valued logic: a credential without recipient is "not r1" and "not in [r1]".
    await d.expect({ recipientId: { not: r1 } }, ["c2", "c3"]);
    await d.expect({ recipientId: { notIn: [r1] } }, ["c2", "c3"]);
    await d.expect({ recipientId: { in: [r1, r2] } }, ["c1", "c2", "c4"]);
    await d.expect({ recipientId: { notIn: [r1, r2] } }, ["c3"]);
    await d.expect({ recipientId: { not: null, notIn: [r2] } }, ["c1", "c4"]);
  });

  test("recipient.name and recipient.email: every string operator, case-insensitive, dotted and nested spellings", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    await d.create("ada", { groupId: group.id, recipient: { name: "Ada Lovelace", email: "ada@example.com" } });
    await d.create("grace", { groupId: group.id, recipient: { name: "Grace Hopper", email: "GRACE@Example.org" } });
    await d.create("alan", { groupId: group.id, recipient: { name: "Alan Turing", email: "alan.turing@example.co.uk" } });
    // No email: recipient is null, so recipient.name is null although attributes hold "Ada Nomail".
    await d.create("nomail", { groupId: group.id, recipient: { name: "Ada Nomail" } });

    const name = (v: unknown) => ({ "recipient.name": v });
    const nested = (v: unknown) => ({ recipient: { name: v } });
    for (const spell of [name, nested]) {
      await d.expect(spell("Ada Lovelace"), ["ada"]);
      await d.expect(spell("ADA LOVELACE"), ["ada"]);
      await d.expect(spell({ equals: "ada lovelace" }), ["ada"]);
      await d.expect(spell({ equals: "Ada" }), []);
      await d.expect(spell({ not: "aDa LoVeLaCe" }), ["grace", "alan", "nomail"]);
      await d.expect(spell({ in: ["ada lovelace", "GRACE HOPPER", "nobody"] }), ["ada", "grace"]);
      await d.expect(spell({ notIn: ["ADA LOVELACE", "grace hopper"] }), ["alan", "nomail"]);
      await d.expect(spell({ contains: "ada" }), ["ada"]);
      await d.expect(spell({ contains: "A" }), ["ada", "grace", "alan"]);
      await d.expect(spell({ contains: "N T" }), ["alan"]);
      await d.expect(spell({ startsWith: "GRA" }), ["grace"]);
      await d.expect(spell({ startsWith: "a" }), ["ada", "alan"]);
      await d.expect(spell({ startsWith: "lovelace" }), []);
      await d.expect(spell({ endsWith: "HOPPER" }), ["grace"]);
      await d.expect(spell({ endsWith: "ing" }), ["alan"]);
      await d.expect(spell({ endsWith: "Ada" }), []);
      await d.expect(spell({ startsWith: "a", endsWith: "E" }), ["ada"]);
      await d.expect(spell({ contains: "a", not: "alan turing" }), ["ada", "grace"]);
      await d.expect(spell({ contains: "nomail" }), []);
      await d.expect(spell(null), ["nomail"]);
      await d.expect(spell({ equals: null }), ["nomail"]);
      await d.expect(spell({ not: null }), ["ada", "grace", "alan"]);
    }

    const email = (v: unknown) => ({ "recipient.email": v });
    const nestedEmail = (v: unknown) => ({ recipient: { email: v } });
    for (const spell of [email, nestedEmail]) {
      await d.expect(spell("grace@example.org"), ["grace"]);
      await d.expect(spell({ equals: "GRACE@EXAMPLE.ORG" }), ["grace"]);
      await d.expect(spell({ not: "Ada@Example.com" }), ["grace", "alan", "nomail"]);
      await d.expect(spell({ in: ["ADA@example.com", "alan.turing@EXAMPLE.co.uk"] }), ["ada", "alan"]);
      await d.expect(spell({ notIn: ["ADA@example.com"] }), ["grace", "alan", "nomail"]);
      await d.expect(spell({ contains: "EXAMPLE.O" }), ["grace"]);
      await d.expect(spell({ contains: "@example." }), ["ada", "grace", "alan"]);
      await d.expect(spell({ contains: "." }), ["ada", "grace", "alan"]);
      await d.expect(spell({ startsWith: "ADA@" }), ["ada"]);
      await d.expect(spell({ endsWith: ".CO.UK" }), ["alan"]);
      await d.expect(spell({ endsWith: ".com" }), ["ada"]);
      await d.expect(spell(null), ["nomail"]);
      await d.expect(spell({ equals: null }), ["nomail"]);
      await d.expect(spell({ not: null }), ["ada", "grace", "alan"]);
    }
    // Both recipient fields in one nested object, and dotted and nested keys side by side: all must hold.
    await d.expect({ recipient: { name: { startsWith: "a" }, email: { endsWith: "uk" } } }, ["alan"]);
    await d.expect({ recipient: { name: { startsWith: "a" } }, "recipient.email": { endsWith: ".com" } }, ["ada"]);
    await d.expect({ recipient: { name: { startsWith: "a" }, email: null } }, []);
  });

  test("non-ASCII and Unicode case: ZOË finds Zoë, ÅSA finds åsa, NFKC-equal text matches", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    await d.create("zoe", { groupId: group.id, recipient: { name: "Zoë Ångström", email: "zoe@example.org" } });
    await d.create("asa", { groupId: group.id, recipient: { name: "åsa Berg", email: "Asa@Example.se" } });
    await d.create("zoe-plain", { groupId: group.id, recipient: { name: "Zoe Angstrom", email: "zoe.plain@example.org" } });
    await d.create("fiona", { groupId: group.id, recipient: { name: "ﬁona Straße", email: "fiona@example.de" } });
    await d.create("greek", { groupId: group.id, recipient: { name: "ΣΩΚΡΆΤΗΣ Δ", email: "sokrates@example.gr" } });

    await d.expect({ "recipient.name": { contains: "ZOË" } }, ["zoe"]);
    await d.expect({ "recipient.name": { contains: "zoë" } }, ["zoe"]);
    await d.expect({ "recipient.name": { equals: "ZOË ÅNGSTRÖM" } }, ["zoe"]);
    await d.expect({ "recipient.name": { endsWith: "ångström" } }, ["zoe"]);
    await d.expect({ "recipient.name": { contains: "zoe" } }, ["zoe-plain"]); // ë is not e
    await d.expect({ "recipient.name": { startsWith: "ÅSA" } }, ["asa"]);
    await d.expect({ "recipient.name": "ÅSA BERG" }, ["asa"]);
    await d.expect({ "recipient.name": { in: ["ÅSA BERG", "zoë ångström"] } }, ["asa", "zoe"]);
    await d.expect({ "recipient.name": { notIn: ["ÅSA BERG", "zoë ångström"] } }, ["zoe-plain", "fiona", "greek"]);
    await d.expect({ "recipient.email": { contains: "ASA@EXAMPLE" } }, ["asa"]);
    await d.expect({ "recipient.name": { contains: "σωκράτης" } }, ["greek"]);
    await d.expect({ "recipient.name": { startsWith: "σωκ" } }, ["greek"]);
    // NFKC: the ligature ﬁ is "fi", on either side.
    await d.expect({ "recipient.name": { startsWith: "fio" } }, ["fiona"]);
    await d.expect({ "recipient.name": { startsWith: "FI" } }, ["fiona"]);
    await d.expect({ "recipient.name": { contains: "ﬁ" } }, ["fiona"]);
    await d.expect({ "recipient.name": { equals: "FIONA STRASSE" } }, []); // ß is not ss in lower case
    await d.expect({ "recipient.name": { endsWith: "STRAẞE" } }, ["fiona"]); // capital sharp s lowers to ß
  });

  test("% and _ (and \\) in the text match themselves, not as LIKE wildcards", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    await d.create("pct", { groupId: group.id, recipient: { name: "100%_done", email: "under_score@example.com" } });
    await d.create("plain", { groupId: group.id, recipient: { name: "100 done", email: "underxscore@example.com" } });
    await d.create("x", { groupId: group.id, recipient: { name: "100x done", email: "under-score@example.com" } });
    await d.create("a_b", { groupId: group.id, recipient: { name: "a_b", email: "ab1@example.com" } });
    await d.create("axb", { groupId: group.id, recipient: { name: "axb", email: "ab2@example.com" } });
    await d.create("a%b", { groupId: group.id, recipient: { name: "a%b", email: "ab3@example.com" } });
    await d.create("slash", { groupId: group.id, recipient: { name: "back\\slash [x] *", email: "ab4@example.com" } });

    await d.expect({ "recipient.name": { contains: "%" } }, ["pct", "a%b"]);
    await d.expect({ "recipient.name": { contains: "_" } }, ["pct", "a_b"]);
    await d.expect({ "recipient.name": { contains: "%_" } }, ["pct"]);
    await d.expect({ "recipient.name": { contains: "0%_D" } }, ["pct"]);
    await d.expect({ "recipient.name": { startsWith: "100%" } }, ["pct"]);
    await d.expect({ "recipient.name": { startsWith: "100_" } }, []);
    await d.expect({ "recipient.name": { startsWith: "a_" } }, ["a_b"]);
    await d.expect({ "recipient.name": { endsWith: "%b" } }, ["a%b"]);
    await d.expect({ "recipient.name": { endsWith: "_b" } }, ["a_b"]);
    await d.expect({ "recipient.name": "a_b" }, ["a_b"]);
    await d.expect({ "recipient.name": { equals: "a%b" } }, ["a%b"]);
    await d.expect({ "recipient.name": { in: ["a_b", "a%"] } }, ["a_b"]);
    await d.expect({ "recipient.name": { not: "a_b" } }, d.except("a_b"));
    await d.expect({ "recipient.name": { contains: "\\" } }, ["slash"]);
    await d.expect({ "recipient.name": { contains: "k\\s" } }, ["slash"]);
    await d.expect({ "recipient.name": { contains: "[x]" } }, ["slash"]);
    await d.expect({ "recipient.name": { contains: "*" } }, ["slash"]);
    await d.expect({ "recipient.name": { contains: "\\%" } }, []);
    await d.expect({ "recipient.name": { contains: "\\_" } }, []);
    await d.expect({ "recipient.email": { startsWith: "under_" } }, ["pct"]);
    await d.expect({ "recipient.email": { contains: "_score@" } }, ["pct"]);
    await d.expect({ "recipient.email": { endsWith: "r_score@example.com" } }, ["pct"]);
  });

  test("status: draft, issued, scheduled, expired exactly as reads show them", async ({ api }) => {
    const group = await newGroup(api);
    const today = todayUtc();
    const d = new Data(api);
    const base = { groupId: group.id };
    await d.create("draft", { ...base, recipient: { name: "Draft" } });
    await d.create("draft-past", {
      ...base,
      recipient: { name: "Draft past" },
      issueDate: addDays(today, -30),
      expiryDate: addDays(today, -2),
    });
    await d.create("issued", { ...base, recipient: { name: "Issued" }, issueDate: addDays(today, -3) }, { issue: true });
    await d.create("issued-today", { ...base, recipient: { name: "Issued today" }, expiryDate: today }, { issue: true });
    await d.create("scheduled", { ...base, recipient: { name: "Scheduled" }, issueDate: addDays(today, 10) }, { issue: true });
    await d.create(
      "scheduled-exp",
      { ...base, recipient: { name: "Scheduled with expiry" }, issueDate: addDays(today, 5), expiryDate: addDays(today, 6) },
      { issue: true },
    );
    await d.create(
      "expired",
      { ...base, recipient: { name: "Expired" }, issueDate: addDays(today, -30), expiryDate: addDays(today, -1) },
      { issue: true },
    );
    await d.create(
      "expired-old",
      { ...base, recipient: { name: "Expired old" }, issueDate: "2020-01-01", expiryDate: "2020-12-31" },
      { issue: true },
    );
    await d.refresh();
    const statuses = Object.fromEntries(d.made.map((m) => [m.label, m.status]));
    expect(statuses).toEqual({
      draft: "draft",
      "draft-past": "draft",
      issued: "issued",
      "issued-today": "issued",
      scheduled: "scheduled",
      "scheduled-exp": "scheduled",
      expired: "expired",
      "expired-old": "expired",
    });
    for (const s of ["draft", "issued", "scheduled", "expired"]) {
      const want = d.made.filter((m) => m.status === s).map((m) => m.label);
      await d.expect({ status: s }, want);
      await d.expect({ status: { equals: s } }, want);
      await d.expect({ status: { not: s } }, d.except(...want));
      await d.expect({ status: { notIn: [s] } }, d.except(...want));
    }
    await d.expect({ status: { in: ["scheduled", "expired"] } }, ["scheduled", "scheduled-exp", "expired", "expired-old"]);
    await d.expect({ status: { notIn: ["issued", "expired"] } }, ["draft", "draft-past", "scheduled", "scheduled-exp"]);
    await d.expect({ status: { in: ["draft", "scheduled", "issued", "expired"] } }, d.all());
    await d.expect({ status: { in: [] } }, []);
    await d.expect({ status: { in: ["issued", "expired"], not: "expired" } }, ["issued", "issued-today"]);
    // The search's status agrees with what each read shows, for every credential.
    for (const m of d.made) expect((await getCredential(api, m.id)).status).toBe(m.status);
  });

  test("recipient.name / recipient.email are the recipient's current ones: shared by its credentials, changed by PATCH", async ({
    api,
  }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    const first = await d.create("first", { groupId: group.id, recipient: { name: "Ada Lovelace", email: "ada@example.com" } });
    // Same recipient (email found again case-insensitively): it keeps its name; the attribute is the credential's own.
    const second = await d.create("second", { groupId: group.id, recipient: { name: "Countess of Lovelace", email: "ADA@EXAMPLE.COM" } });
    await d.create("other", { groupId: group.id, recipient: { name: "Grace Hopper", email: "grace@example.com" } });
    expect(second.recipient).toEqual(first.recipient);
    expect(second.attributes["recipient.name"]).toBe("Countess of Lovelace");
    await d.expect({ "recipient.name": "ada lovelace" }, ["first", "second"]);
    await d.expect({ "recipient.name": { contains: "countess" } }, []); // only the attribute holds it
    await d.expect({ recipientId: first.recipient!.id }, ["first", "second"]);

    const patched = await withRateLimit(() =>
      api.patch(`/v1/credentials/${first.id}`, {
        data: { recipient: { id: first.recipient!.id, name: "Augusta ÅDA King", email: "Augusta@Example.net" } },
      }),
    );
    expect(patched.status(), await patched.text()).toBe(200);
    await d.refresh();
    expect(d.get("second").recipient!.name).toBe("Augusta ÅDA King");
    await d.expect({ "recipient.name": "ada lovelace" }, []);
    await d.expect({ "recipient.name": { startsWith: "augusta åda" } }, ["first", "second"]);
    await d.expect({ recipient: { name: { endsWith: "å" + "da king" }, email: "augusta@example.NET" } }, ["first", "second"]);
    await d.expect({ "recipient.email": { contains: "ada@" } }, []);
    await d.expect({ "recipient.email": { endsWith: "@example.com" } }, ["other"]);
  });

  test("status after PATCHing dates agrees with what reads show (scheduled moved to the past, issued moved past its expiry)", async ({
    api,
  }) => {
    const group = await newGroup(api);
    const today = todayUtc();
    const d = new Data(api);
    const base = { groupId: group.id };
    const sched = await d.create("was-scheduled", { ...base, recipient: { name: "S" }, issueDate: addDays(today, 10) }, { issue: true });
    const issued = await d.create("was-issued", { ...base, recipient: { name: "I" }, issueDate: addDays(today, -10) }, { issue: true });
    const expired = await d.create(
      "was-expired",
      { ...base, recipient: { name: "E" }, issueDate: addDays(today, -10), expiryDate: addDays(today, -1) },
      { issue: true },
    );
    await d.create("draft", { ...base, recipient: { name: "D" }, issueDate: addDays(today, 3) });
    expect([sched.status, issued.status, expired.status]).toEqual(["scheduled", "issued", "expired"]);
    const patch = async (id: string, data: Record<string, unknown>) => {
      const res = await withRateLimit(() => api.patch(`/v1/credentials/${id}`, { data }));
      return res.status();
    };
    const changes = [
      await patch(sched.id, { issueDate: addDays(today, -1) }),
      await patch(issued.id, { expiryDate: addDays(today, -1) }),
      await patch(expired.id, { expiryDate: addDays(today, 30) }),
    ];
    test.skip(
      changes.every((s) => s !== 200),
      "PATCH does not change dates of issued credentials",
    );
    await d.refresh();
    for (const status of ["draft", "scheduled", "issued", "expired"]) {
      const want = d.made.filter((m) => m.status === status).map((m) => m.label);
      await d.expect({ status }, want);
      await d.expect({ status: { not: status } }, d.except(...want));
    }
  });

  test("issueDate and expiryDate: equals, not, in, notIn, gt, gte, lt, lte; null expiry is never compared true", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    const mk = (label: string, issueDate: string, expiryDate?: string) =>
      d.create(label, { groupId: group.id, recipient: { name: label }, issueDate, ...(expiryDate ? { expiryDate } : {}) });
    await mk("d1", "2024-03-01");
    await mk("d2", "2024-03-02", "2025-01-01");
    await mk("d3", "2024-03-02", "2025-06-30");
    await mk("d4", "2024-03-03");
    await mk("d5", "2024-02-29", "2024-02-29");
    expect(d.get("d1").expiryDate).toBeNull();

    await d.expect({ issueDate: "2024-03-02" }, ["d2", "d3"]);
    await d.expect({ issueDate: { equals: "2024-03-02" } }, ["d2", "d3"]);
    await d.expect({ issueDate: { not: "2024-03-02" } }, ["d1", "d4", "d5"]);
    await d.expect({ issueDate: { in: ["2024-03-01", "2024-02-29", "2023-01-01"] } }, ["d1", "d5"]);
    await d.expect({ issueDate: { notIn: ["2024-03-01", "2024-02-29"] } }, ["d2", "d3", "d4"]);
    await d.expect({ issueDate: { gt: "2024-03-01" } }, ["d2", "d3", "d4"]);
    await d.expect({ issueDate: { gte: "2024-03-01" } }, ["d1", "d2", "d3", "d4"]);
    await d.expect({ issueDate: { lt: "2024-03-02" } }, ["d1", "d5"]);
    await d.expect({ issueDate: { lte: "2024-03-02" } }, ["d1", "d2", "d3", "d5"]);
    await d.expect({ issueDate: { gt: "2024-03-01", lt: "2024-03-03" } }, ["d2", "d3"]);
    await d.expect({ issueDate: { gte: "2024-03-03", lte: "2024-03-01" } }, []);
    await d.expect({ issueDate: { gt: "2023-12-31" } }, d.all());
    await d.expect({ issueDate: { lt: "2024-02-29" } }, []);
    await d.expect({ issueDate: { gte: "2024-02-29", not: "2024-03-02", notIn: ["2024-03-03"] } }, ["d1", "d5"]);

    await d.expect({ expiryDate: null }, ["d1", "d4"]);
    await d.expect({ expiryDate: { equals: null } }, ["d1", "d4"]);
    await d.expect({ expiryDate: { not: null } }, ["d2", "d3", "d5"]);
    await d.expect({ expiryDate: "2024-02-29" }, ["d5"]);
    await d.expect({ expiryDate: { in: ["2025-01-01", "2026-01-01"] } }, ["d2"]);
    await d.expect({ expiryDate: { lt: "2025-03-01" } }, ["d2", "d5"]);
    await d.expect({ expiryDate: { lte: "2025-06-30" } }, ["d2", "d3", "d5"]);
    await d.expect({ expiryDate: { gt: "2024-02-29" } }, ["d2", "d3"]);
    await d.expect({ expiryDate: { gte: "2024-02-29" } }, ["d2", "d3", "d5"]);
    // Two-valued logic: credentials without expiry are "not 2025-01-01" and "not in [...]".
    await d.expect({ expiryDate: { not: "2025-01-01" } }, ["d1", "d3", "d4", "d5"]);
    await d.expect({ expiryDate: { notIn: ["2025-01-01", "2024-02-29"] } }, ["d1", "d3", "d4"]);
    await d.expect({ expiryDate: { notIn: [] } }, d.all());
    await d.expect({ NOT: { expiryDate: { lt: "2025-03-01" } } }, ["d1", "d3", "d4"]);
    await d.expect({ NOT: { expiryDate: { gte: "2000-01-01" } } }, ["d1", "d4"]);
    await d.expect({ expiryDate: { not: null, lt: "2025-06-30" } }, ["d2", "d5"]);
    await d.expect({ expiryDate: { equals: null, lt: "2030-01-01" } }, []);
    await d.expect({ expiryDate: { equals: null }, issueDate: { gt: "2024-03-01" } }, ["d4"]);
  });

  test("createdAt and updatedAt: every comparison, with ms, Python-style µs and +02:00 / -05:30 offsets", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    for (const label of ["c1", "c2", "c3"]) {
      await d.create(label, { groupId: group.id, recipient: { name: label } });
      await sleep(25);
    }
    await postJson(api, `/v1/credentials/${d.get("c1").id}/issue`, undefined, 200);
    await d.refresh();
    const [c1, c2, c3] = [d.get("c1"), d.get("c2"), d.get("c3")];
    expect(instantNs(c1.createdAt) < instantNs(c2.createdAt) && instantNs(c2.createdAt) < instantNs(c3.createdAt)).toBe(true);
    expect(instantNs(c1.updatedAt) > instantNs(c3.updatedAt)).toBe(true);

    const t = c2.createdAt;
    const spellings = [
      t,
      formatInstant(t, { digits: 6, offset: "+00:00" }), // datetime.isoformat() of an aware UTC datetime
      formatInstant(t, { digits: 6 }),
      formatInstant(t, { digits: 3, offset: "+02:00" }),
      formatInstant(t, { digits: 6, offset: "+02:00" }),
      formatInstant(t, { digits: 6, offset: "-05:30" }),
    ];
    for (const v of spellings) {
      await d.expect({ createdAt: v }, ["c2"]);
      await d.expect({ createdAt: { equals: v } }, ["c2"]);
      await d.expect({ createdAt: { not: v } }, ["c1", "c3"]);
      await d.expect({ createdAt: { in: [v] } }, ["c2"]);
      await d.expect({ createdAt: { notIn: [v] } }, ["c1", "c3"]);
      await d.expect({ createdAt: { gt: v } }, ["c3"]);
      await d.expect({ createdAt: { gte: v } }, ["c2", "c3"]);
      await d.expect({ createdAt: { lt: v } }, ["c1"]);
      await d.expect({ createdAt: { lte: v } }, ["c1", "c2"]);
    }
    // One microsecond after / before the stored millisecond: compared exactly, not rounded.
    for (const offset of ["Z", "+00:00", "+02:00", "-05:30"]) {
      const after = formatInstant(t, { deltaMicros: 1, offset });
      const before = formatInstant(t, { deltaMicros: -1, offset });
      await d.expect({ createdAt: after }, []);
      await d.expect({ createdAt: { gt: after } }, ["c3"]);
      await d.expect({ createdAt: { gte: after } }, ["c3"]);
      await d.expect({ createdAt: { lt: after } }, ["c1", "c2"]);
      await d.expect({ createdAt: { lte: after } }, ["c1", "c2"]);
      await d.expect({ createdAt: before }, []);
      await d.expect({ createdAt: { gt: before } }, ["c2", "c3"]);
      await d.expect({ createdAt: { lt: before } }, ["c1"]);
      await d.expect({ createdAt: { lte: before } }, ["c1"]);
      await d.expect({ createdAt: { in: [before, after] } }, []);
      await d.expect({ createdAt: { notIn: [before, after] } }, d.all());
      await d.expect({ createdAt: { gt: before, lt: after } }, ["c2"]);
    }
    // Nanoseconds (Java's Instant.toString) and a single fraction digit.
    const nanos = `${t.slice(0, 23)}000001Z`;
    await d.expect({ createdAt: { gt: nanos } }, ["c3"]);
    await d.expect({ createdAt: { lte: nanos } }, ["c1", "c2"]);
    await d.expect({ createdAt: `${t.slice(0, 23)}000000Z` }, ["c2"]);
    const tenth = `${t.slice(0, 21)}Z`; // one digit: t's tenth of a second, at or before t
    await d.expect(
      { createdAt: { gte: tenth } },
      d.made.filter((c) => instantNs(c.createdAt) >= instantNs(tenth)),
    );
    // Whole seconds (no fraction): computed from the instants.
    const second = `${t.slice(0, 19)}Z`;
    const at = (c: Credential) => instantNs(c.createdAt);
    const s = instantNs(second);
    await d.expect(
      { createdAt: { gte: second } },
      d.made.filter((c) => at(c) >= s),
    );
    await d.expect(
      { createdAt: { lt: second } },
      d.made.filter((c) => at(c) < s),
    );
    await d.expect(
      { createdAt: { lt: `${t.slice(0, 19)}+00:00` } },
      d.made.filter((c) => at(c) < s),
    );

    // updatedAt: c1 was issued last.
    const u = c1.updatedAt;
    await d.expect({ updatedAt: u }, ["c1"]);
    await d.expect({ updatedAt: formatInstant(u, { offset: "+02:00" }) }, ["c1"]);
    await d.expect({ updatedAt: { not: formatInstant(u, { offset: "-05:30", digits: 3 }) } }, ["c2", "c3"]);
    await d.expect({ updatedAt: { gt: c3.updatedAt } }, ["c1"]);
    await d.expect({ updatedAt: { gte: c3.updatedAt } }, ["c1", "c3"]);
    await d.expect({ updatedAt: { lt: u } }, ["c2", "c3"]);
    await d.expect({ updatedAt: { lte: formatInstant(u, { deltaMicros: -1 }) } }, ["c2", "c3"]);
    await d.expect({ updatedAt: { in: [c2.updatedAt, u] } }, ["c1", "c2"]);
    await d.expect({ updatedAt: { notIn: [c2.updatedAt, u] } }, ["c3"]);
    await d.expect({ updatedAt: { gt: c1.createdAt }, createdAt: { lt: c2.createdAt } }, ["c1"]);
  });
});

test.describe("POST /v1/credentials/search: AND, OR, NOT", () => {
  test("implicit AND, AND/OR arrays, NOT object and array, nesting, empty combinators", async ({ api }) => {
    const groupA = await newGroup(api);
    const groupB = await newGroup(api);
    const d = new Data(api);
    await d.create("a1", { groupId: groupA.id, recipient: { name: "Ada", email: "ada@example.com" } });
    await d.create("a2", { groupId: groupA.id, recipient: { name: "Bob", email: "bob@example.com" } }, { issue: true });
    await d.create("a3", { groupId: groupA.id, recipient: { name: "Cyd" } });
    await d.create("b1", { groupId: groupB.id, recipient: { name: "Dee", email: "dee@example.com" } }, { issue: true });
    await d.create("b2", { groupId: groupB.id, recipient: { name: "Eve", email: "eve@example.com" }, expiryDate: "2030-01-01" });
    const A = groupA.id;
    const B = groupB.id;

    await d.expect({ groupId: A, status: "draft" }, ["a1", "a3"]);
    await d.expect({ AND: [{ groupId: A }, { status: "draft" }] }, ["a1", "a3"]);
    await d.expect({ AND: [{ groupId: A }], status: "draft" }, ["a1", "a3"]);
    await d.expect({ AND: [{ groupId: A }, { groupId: B }] }, []);
    await d.expect({ OR: [{ groupId: B }, { status: "issued" }] }, ["a2", "b1", "b2"]);
    await d.expect({ OR: [{ groupId: B }], status: "draft" }, ["b2"]);
    await d.expect({ OR: [{ groupId: A, status: "issued" }, { "recipient.name": "eve" }] }, ["a2", "b2"]);
    await d.expect({ NOT: { groupId: A } }, ["b1", "b2"]);
    await d.expect({ NOT: [{ groupId: A }] }, ["b1", "b2"]);
    await d.expect({ NOT: [{ groupId: A }, { status: "issued" }] }, ["b2"]); // array: none may match
    await d.expect({ NOT: { groupId: A, status: "draft" } }, ["a2", "b1", "b2"]); // object: not (A and draft)
    await d.expect({ NOT: { NOT: { groupId: A } } }, ["a1", "a2", "a3"]);
    await d.expect({ NOT: { OR: [{ groupId: B }, { status: "issued" }] } }, ["a1", "a3"]);
    await d.expect({ OR: [{ AND: [{ groupId: A }, { NOT: { status: "draft" } }] }, { "recipient.name": { startsWith: "d" } }] }, [
      "a2",
      "b1",
    ]);
    await d.expect(
      {
        AND: [{ OR: [{ status: "issued" }, { NOT: { recipient: { email: { equals: null } } } }] }, { NOT: [{ "recipient.name": "EVE" }] }],
      },
      ["a1", "a2", "b1"],
    );
    await d.expect({ OR: [{ NOT: [{ groupId: A }, { status: "draft" }] }, { AND: [{ NOT: { groupId: B } }, { recipientId: null }] }] }, [
      "b1",
      "a3",
    ]);
    await d.expect({ groupId: A, OR: [{ status: "issued" }, { recipientId: null }], NOT: { "recipient.name": "bob" } }, ["a3"]);
    await d.expect({ AND: [{ AND: [{ AND: [{ groupId: A }] }] }] }, ["a1", "a2", "a3"]);

    // Empty combinators and filters.
    await d.expect({}, d.all());
    await d.expect({ AND: [] }, d.all());
    await d.expect({ OR: [] }, []);
    await d.expect({ NOT: [] }, d.all());
    await d.expect({ NOT: {} }, []);
    await d.expect({ OR: [{}] }, d.all());
    await d.expect({ AND: [{}, { groupId: B }] }, ["b1", "b2"]);
    await d.expect({ OR: [], groupId: A }, []);

    // Two-valued logic under NOT: a missing value fails the condition, so NOT matches it.
    await d.expect({ NOT: { "recipient.email": { contains: "example" } } }, ["a3"]);
    await d.expect({ NOT: { "recipient.name": { startsWith: "c" } } }, d.all()); // a3's recipient.name is null
    await d.expect({ NOT: { expiryDate: { lt: "2031-01-01" } } }, ["a1", "a2", "a3", "b1"]);
    await d.expect({ NOT: { expiryDate: { not: "2030-01-01" } } }, ["b2"]);
    await d.expect({ NOT: { recipientId: { in: [d.get("a1").recipient!.id] } } }, d.except("a1"));
    await d.expect({ OR: [{ expiryDate: { gte: "2030-01-01" } }, { NOT: { expiryDate: { gte: "2030-01-01" } } }] }, d.all());
  });

  test("large filters: in lists of 1,000 values and 500 OR branches work; larger ones work or are a validation_error, never a 500", async ({
    api,
  }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    const c = await d.create("one", { groupId: group.id, recipient: { name: "One" } });
    await d.create("two", { groupId: group.id, recipient: { name: "Two" } });
    const ids = (n: number) => {
      const many = Array.from({ length: n }, (_, i) => `x${i}`);
      many[Math.floor(n / 2)] = c.id;
      return many;
    };
    await d.expect({ id: { in: ids(1000) } }, ["one"]);
    await d.expect({ id: { notIn: ids(1000) } }, ["two"]);
    const branches = Array.from({ length: 500 }, (_, i) => ({ "recipient.name": { contains: `zz${i}` } }));
    await d.expect({ OR: [...branches, { id: c.id }] }, ["one"]);

    // 70,000 values (past both engines' bound-parameter limits, within the 1 MiB body): the contract sets
    // no limit, so either the right answer or a validation_error naming the list.
    for (const [op, want] of [
      ["in", ["one"]],
      ["notIn", ["two"]],
    ] as const) {
      const res = await postSearch(api, { filter: { id: { [op]: ids(70_000) } } });
      const text = await res.text();
      expect([200, 400], `${op}: ${text.slice(0, 300)}`).toContain(res.status());
      if (res.status() === 200) expect(d.labels((JSON.parse(text) as SearchPage).data.map((x) => x.id))).toEqual(want);
      else await expectError(res, 400, "validation_error", { paths: [`filter.id.${op}`], exactPaths: true });
    }
  });

  test("nesting: 20 levels work; a very deep filter answers 200 or a validation_error, never a server error", async ({ api }) => {
    const group = await newGroup(api);
    const d = new Data(api);
    await d.create("one", { groupId: group.id, recipient: { name: "One" } });
    let moderate: Record<string, unknown> = { status: "draft" };
    for (let i = 0; i < 10; i++) moderate = { NOT: { NOT: moderate } };
    await d.expect(moderate, ["one"]);
    await d.expect({ NOT: moderate }, []);
    let mixed: Record<string, unknown> = { "recipient.name": null };
    for (let i = 0; i < 20; i++) mixed = i % 2 ? { OR: [{ id: "x" }, mixed] } : { AND: [mixed, {}] };
    await d.expect(mixed, ["one"]);
    // 10,000 levels (about 100 kB), written out by hand: the client's serializer recurses.
    let deep = '{"status":"draft"}';
    for (let i = 0; i < 10_000; i++) deep = i % 2 ? `{"NOT":${deep}}` : `{"AND":[${deep}]}`;
    const res = await withRateLimit(() =>
      api.post(SEARCH, { data: `{"filter":${deep}}`, headers: { "Content-Type": "application/json" } }),
    );
    const text = await res.text();
    expect([200, 400], text.slice(0, 300)).toContain(res.status());
    if (res.status() === 400) expect(JSON.parse(text).error.code).toBe("validation_error");
  });
});

test.describe("POST /v1/credentials/search: sort", () => {
  async function sortData(api: APIRequestContext): Promise<Data> {
    const groupA = await newGroup(api);
    const groupB = await newGroup(api);
    const d = new Data(api);
    const rows: [string, string, string | null, boolean][] = [
      ["s1", "2024-01-02", null, false],
      ["s2", "2024-01-02", "2025-01-01", true],
      ["s3", "2024-01-01", "2025-01-01", false],
      ["s4", "2024-01-03", null, true],
      ["s5", "2024-01-01", "2024-06-01", false],
      ["s6", "2024-01-02", "2025-01-01", false],
      ["s7", "2024-01-03", null, false],
    ];
    for (const [label, issueDate, expiryDate, issue] of rows) {
      await d.create(
        label,
        { groupId: groupA.id, recipient: { name: label }, issueDate, ...(expiryDate ? { expiryDate } : {}) },
        { issue },
      );
    }
    // Made at once: likely the same createdAt millisecond, then only the id breaks the tie.
    await Promise.all(
      ["t1", "t2", "t3"].map((label, i) =>
        d.create(label, {
          groupId: i === 2 ? groupB.id : groupA.id,
          recipient: { name: label },
          issueDate: "2024-01-02",
          expiryDate: "2025-01-01",
        }),
      ),
    );
    // Later updates reorder updatedAt.
    await postJson(api, `/v1/credentials/${d.get("s3").id}/issue`, undefined, 200);
    expect(
      (
        await withRateLimit(() => api.patch(`/v1/credentials/${d.get("s7").id}`, { data: { customAttributes: { "custom.note": "x" } } }))
      ).status(),
    ).toBe(200);
    await d.refresh();
    return d;
  }

  for (const property of SORT_PROPERTIES) {
    test(`by ${property}, asc and desc: ties broken by id in the same direction, nulls last`, async ({ api }) => {
      const d = await sortData(api);
      for (const order of ["asc", "desc"] as const) {
        const sort: Sort = { property, order };
        const expected = sortCredentials(d.made, sort).map((c) => c.label);
        if (property === "expiryDate") expect(expected.slice(-3).sort()).toEqual(["s1", "s4", "s7"]);
        for (const limit of [100, 3, 1]) {
          const walk = await walkForward(api, { filter: {}, sort, limit });
          expect(d.labels(walk.ids), `sort ${JSON.stringify(sort)} limit ${limit}`).toEqual(expected);
        }
        // With a filter, the same order among what matches.
        const groupA = d.get("s1").groupId;
        await d.expect(
          { groupId: groupA },
          d.made.filter((c) => c.groupId === groupA),
          sort,
        );
        await d.expect(
          { NOT: { expiryDate: { gt: "2024-12-31" } } },
          d.made.filter((c) => c.expiryDate === null || c.expiryDate <= "2024-12-31"),
          sort,
        );
      }
    });
  }

  test("default order is createdAt desc, ties by id desc", async ({ api }) => {
    const d = await sortData(api);
    const expected = sortCredentials(d.made, { property: "createdAt", order: "desc" }).map((c) => c.label);
    expect(d.labels((await walkForward(api, { limit: 4 })).ids)).toEqual(expected);
    expect(d.labels((await searchPage(api, {})).data.map((c) => c.id))).toEqual(expected);
    expect(d.labels((await searchPage(api, { filter: {} })).data.map((c) => c.id))).toEqual(expected);
  });
});

test.describe("POST /v1/credentials/search: pagination and limit", () => {
  async function pagingData(api: APIRequestContext): Promise<{ d: Data; groupA: string }> {
    const groupA = await newGroup(api);
    const groupB = await newGroup(api);
    const d = new Data(api);
    const dates = ["2024-01-02", "2024-01-01", "2024-01-02", "2024-01-03", "2024-01-02", "2024-01-01", "2024-01-02"];
    for (const [i, issueDate] of dates.entries()) {
      await d.create(`a${i}`, { groupId: groupA.id, recipient: { name: `A${i}`, email: `a${i}@example.com` }, issueDate });
      if (i % 3 === 0) await d.create(`b${i}`, { groupId: groupB.id, recipient: { name: `B${i}` }, issueDate });
    }
    return { d, groupA: groupA.id };
  }

  async function walkBack(api: APIRequestContext, from: SearchPage, body: Record<string, unknown>): Promise<SearchPage[]> {
    const back: SearchPage[] = [from];
    let cursor = from.pagination.prev;
    while (cursor) {
      const p = await searchPage(api, { ...body, cursor });
      back.push(p);
      cursor = p.pagination.prev;
      expect(back.length).toBeLessThan(50);
    }
    return back;
  }

  for (const sort of [undefined, { property: "issueDate", order: "asc" } as Sort, { property: "expiryDate", order: "desc" } as Sort]) {
    test(`limit 1..3: next to the end gives every match once, in order; prev walks back (sort ${JSON.stringify(sort ?? "default")})`, async ({
      api,
    }) => {
      const { d, groupA } = await pagingData(api);
      const filter = { groupId: groupA };
      const matching = d.made.filter((c) => c.groupId === groupA);
      expect(matching.length).toBe(7);
      const expected = sortCredentials(matching, sort).map((c) => c.label);
      for (const limit of [1, 2, 3]) {
        const body = { filter, limit, ...(sort ? { sort } : {}) };
        const walk = await walkForward(api, body);
        const label = `limit ${limit}`;
        expect(d.labels(walk.ids), label).toEqual(expected);
        expect(
          walk.pages.map((p) => p.data.length),
          label,
        ).toEqual([...Array(Math.floor(7 / limit)).fill(limit), ...(7 % limit ? [7 % limit] : [])]);
        expect(walk.pages[0]!.pagination.prev, label).toBeNull();
        for (const p of walk.pages.slice(1)) expect(p.pagination.prev, label).toEqual(expect.any(String));
        for (const p of walk.pages.slice(0, -1)) expect(p.pagination.next, label).toEqual(expect.any(String));
        expect(walk.pages.at(-1)!.pagination.next, label).toBeNull();

        // Back from the last page: the same pages in reverse; prev is null on the first.
        const back = await walkBack(api, walk.pages.at(-1)!, body);
        expect(back.map((p) => d.labels(p.data.map((c) => c.id))).reverse(), label).toEqual(
          walk.pages.map((p) => d.labels(p.data.map((c) => c.id))),
        );
        expect(back.at(-1)!.pagination.prev, label).toBeNull();
        expect(back.at(-1)!.pagination.next, label).toEqual(expect.any(String));
        // ... also without repeating filter and sort.
        const backBare = await walkBack(api, walk.pages.at(-1)!, { limit });
        expect(
          backBare.map((p) => p.data.map((c) => c.id)),
          label,
        ).toEqual(back.map((p) => p.data.map((c) => c.id)));
        // A prev page's next leads forward again.
        if (back.length > 1) {
          const again = await searchPage(api, { limit, cursor: back[1]!.pagination.next });
          expect(
            again.data.map((c) => c.id),
            label,
          ).toEqual(back[0]!.data.map((c) => c.id));
        }

        // The cursor alone (filter and sort omitted) continues the same search.
        const bare = await walkForward(api, body, { repeat: "none" });
        expect(bare.ids, label).toEqual(walk.ids);
      }
    });
  }

  test("a cursor carries its search: nested spelling of the same filter is the same search; limit may change; cursor null is the first page", async ({
    api,
  }) => {
    const { d, groupA } = await pagingData(api);
    const sort: Sort = { property: "issueDate", order: "desc" };
    const filter = { groupId: groupA, "recipient.email": { endsWith: "@example.com" } };
    const expected = sortCredentials(
      d.made.filter((c) => c.groupId === groupA),
      sort,
    ).map((c) => c.id);
    const first = await searchPage(api, { filter, sort, limit: 2, cursor: null });
    expect(first.data.map((c) => c.id)).toEqual(expected.slice(0, 2));
    const second = await searchPage(api, {
      filter: { recipient: { email: { endsWith: "@example.com" } }, groupId: groupA },
      sort: { order: "desc", property: "issueDate" },
      cursor: first.pagination.next,
      limit: 4,
    });
    expect(second.data.map((c) => c.id)).toEqual(expected.slice(2, 6));
    const third = await searchPage(api, { cursor: second.pagination.next, limit: 100 });
    expect(third.data.map((c) => c.id)).toEqual(expected.slice(6));
    expect(third.pagination.next).toBeNull();
    const backToSecond = await searchPage(api, { cursor: third.pagination.prev, limit: 4 });
    expect(backToSecond.data.map((c) => c.id)).toEqual(expected.slice(2, 6));
  });

  test("the cursor alone continues a large filter's search (filter and sort may be left out on later pages)", async ({ api }) => {
    const { d, groupA } = await pagingData(api);
    // Over 10 kB of filter: 300 unknown ids beside the real ones, and a long OR.
    const filler = Array.from({ length: 300 }, (_, i) => `cred_${i.toString().padStart(30, "0")}`);
    const filter = {
      OR: [
        { id: { in: [...filler, ...d.made.map((c) => c.id)] } },
        ...Array.from({ length: 40 }, (_, i) => ({ "recipient.name": `nobody number ${i}` })),
      ],
      groupId: groupA,
    };
    expect(JSON.stringify(filter).length).toBeGreaterThan(10_000);
    const sort: Sort = { property: "issueDate", order: "desc" };
    const expected = sortCredentials(
      d.made.filter((c) => c.groupId === groupA),
      sort,
    ).map((c) => c.id);
    const repeated = await walkForward(api, { filter, sort, limit: 2 });
    expect(repeated.ids).toEqual(expected);
    const bare = await walkForward(api, { filter, sort, limit: 2 }, { repeat: "none" });
    expect(bare.ids).toEqual(expected);
    const back = await searchPage(api, { cursor: bare.pages.at(-1)!.pagination.prev, limit: 2 });
    expect(back.data.map((c) => c.id)).toEqual(bare.pages.at(-2)!.data.map((c) => c.id));
  });

  for (const sort of [
    undefined,
    { property: "createdAt", order: "asc" } as Sort,
    { property: "issueDate", order: "asc" } as Sort,
    { property: "id", order: "desc" } as Sort,
  ]) {
    test(`credentials created between pages cause no duplicates or misses of the others (sort ${JSON.stringify(sort ?? "default")})`, async ({
      api,
    }) => {
      const { d, groupA } = await pagingData(api);
      const body = { filter: { groupId: groupA }, limit: 2, ...(sort ? { sort } : {}) };
      const original = sortCredentials(
        d.made.filter((c) => c.groupId === groupA),
        sort,
      ).map((c) => c.id);
      let n = 0;
      const walk = await walkForward(api, body, {
        between: async (_page, index) => {
          if (index >= 3) return;
          for (const issueDate of ["2024-01-02", "2024-01-01"]) {
            await d.create(`new${n++}`, { groupId: groupA, recipient: { name: `New ${n}` }, issueDate });
          }
        },
      });
      expect(n).toBeGreaterThan(0);
      expect(new Set(walk.ids).size, "no duplicates").toBe(walk.ids.length);
      const originalsSeen = walk.ids.filter((id) => original.includes(id));
      expect(d.labels(originalsSeen)).toEqual(d.labels(original));
      if (!sort) expect(d.labels(walk.ids)).toEqual(d.labels(original)); // newer ones belong before the first page
      // What was returned is in the search's order.
      const seen = d.made.filter((c) => walk.ids.includes(c.id));
      expect(d.labels(walk.ids)).toEqual(sortCredentials(seen, sort).map((c) => c.label));
    });
  }

  test("limit: default 20, any of 1..100, the last page's next is null even when full", async ({ api }) => {
    test.setTimeout(120_000);
    const group = await newGroup(api);
    const d = new Data(api);
    for (let i = 0; i < 21; i++) await d.create(`c${i}`, { groupId: group.id, recipient: { name: `C${i}` } });
    const expected = sortCredentials(d.made).map((c) => c.id);

    const first = await searchPage(api, {});
    expect(first.data.map((c) => c.id)).toEqual(expected.slice(0, 20));
    expect(first.pagination).toEqual({ prev: null, next: expect.any(String) });
    const rest = await searchPage(api, { cursor: first.pagination.next });
    expect(rest.data.map((c) => c.id)).toEqual(expected.slice(20));
    expect(rest.pagination).toEqual({ prev: expect.any(String), next: null });

    for (const limit of [1, 2, 20, 21, 22, 99, 100]) {
      const p = await searchPage(api, { limit });
      expect(
        p.data.map((c) => c.id),
        `limit ${limit}`,
      ).toEqual(expected.slice(0, limit));
      if (limit >= 21) expect(p.pagination, `limit ${limit}`).toEqual({ prev: null, next: null });
      else expect(p.pagination.next, `limit ${limit}`).toEqual(expect.any(String));
    }
    // Exactly full last page: 21 = 3 × 7.
    const walk = await walkForward(api, { limit: 7 });
    expect(walk.pages.map((p) => p.data.length)).toEqual([7, 7, 7]);
    expect(walk.ids).toEqual(expected);

    // A filter that matches nothing: one empty page, no cursors.
    expect(await searchPage(api, { filter: { id: "nope" }, limit: 5 })).toEqual({ data: [], pagination: { prev: null, next: null } });
  });

  test("invalid limits → validation_error at limit", async ({ api }) => {
    for (const limit of [0, 101, -1, 1.5, 1000, "20", "", true, [20], { n: 20 }]) {
      await expectError(await postSearch(api, { limit }), 400, "validation_error", { paths: ["limit"], exactPaths: true });
    }
    await expectStatus(await postSearch(api, { limit: 100 }), 200);
    await expectStatus(await postSearch(api, { limit: 1 }), 200);
  });
});
