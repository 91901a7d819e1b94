// Property-based check of POST /v1/credentials/search: random datasets made through the API, random valid
// filters (values drawn from the data, AND / OR / NOT nested up to 3 deep), random sorts and limits.
// Walking `next` to the end must give exactly what a small reference evaluator written from docs/api.md
// section 4 and lib/search/README.md gives, in order. Nothing here comes from the implementation.
//
// Reproduce a failure with the seed it prints: SEARCH_PROPERTY_SEED=<seed> npx playwright test ... search-property
import type { APIRequestContext } from "@playwright/test";
import fc from "fast-check";
import { test, expect } from "../fixtures";
import { addDays, allCredentials, newGroup, todayUtc, type Credential } from "../support/credentials";
import {
  SORT_PROPERTIES,
  formatInstant,
  instantNs,
  postJson,
  searchPage,
  sortCredentials,
  walkForward,
  withRateLimit,
  type SearchPage,
  type Sort,
} from "../support/search";

test.describe.configure({ timeout: 240_000 });

// ---- the reference evaluator -------------------------------------------------------------------

type Kind = "identifier" | "string" | "enum" | "date" | "datetime";
const FIELDS: Record<string, { kind: Kind; nullable: boolean }> = {
  id: { kind: "identifier", nullable: false },
  publicId: { kind: "identifier", nullable: false },
  groupId: { kind: "identifier", nullable: false },
  recipientId: { kind: "identifier", nullable: true },
  status: { kind: "enum", nullable: false },
  "recipient.name": { kind: "string", nullable: true },
  "recipient.email": { kind: "string", nullable: true },
  issueDate: { kind: "date", nullable: false },
  expiryDate: { kind: "date", nullable: true },
  createdAt: { kind: "datetime", nullable: false },
  updatedAt: { kind: "datetime", nullable: false },
};
type Field = keyof typeof FIELDS;

function valueOf(c: Credential, field: Field): string | null {
  switch (field) {
    case "recipientId":
      return c.recipient?.id ?? null;
    case "recipient.name":
      return c.recipient?.name ?? null;
    case "recipient.email":
      return c.recipient?.email ?? null;
    default:
      return c[field as keyof Credential] as string | null;
  }
}

/** -1, 0, 1 for two non-null values of a kind; strings compare after NFKC and lower-casing. */
function compare(kind: Kind, a: string, b: string): number {
  if (kind === "datetime") {
    const x = instantNs(a);
    const y = instantNs(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (kind === "string") {
    a = norm(a);
    b = norm(b);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const norm = (s: string) => s.normalize("NFKC").toLowerCase();

/** One operator, two-valued: a null value fails everything but `equals: null`, `not: x` and `notIn`. */
function holds(kind: Kind, v: string | null, op: string, arg: unknown): boolean {
  const eq = (x: unknown) => (x === null ? v === null : v !== null && compare(kind, v, x as string) === 0);
  switch (op) {
    case "equals":
      return eq(arg);
    case "not":
      return !eq(arg);
    case "in":
      return (arg as string[]).some(eq);
    case "notIn":
      return !(arg as string[]).some(eq);
  }
  if (v === null) return false;
  switch (op) {
    case "contains":
      return norm(v).includes(norm(arg as string));
    case "startsWith":
      return norm(v).startsWith(norm(arg as string));
    case "endsWith":
      return norm(v).endsWith(norm(arg as string));
    case "gt":
      return compare(kind, v, arg as string) > 0;
    case "gte":
      return compare(kind, v, arg as string) >= 0;
    case "lt":
      return compare(kind, v, arg as string) < 0;
    case "lte":
      return compare(kind, v, arg as string) <= 0;
  }
  throw new Error(`reference: unknown operator ${op}`);
}

function fieldMatches(c: Credential, field: Field, value: unknown): boolean {
  const { kind } = FIELDS[field]!;
  const v = valueOf(c, field);
  if (value === null || typeof value !== "object") return holds(kind, v, "equals", value);
  return Object.entries(value as Record<string, unknown>).every(([op, arg]) => holds(kind, v, op, arg));
}

type Filter = Record<string, unknown>;

function matches(c: Credential, filter: Filter): boolean {
  return Object.entries(filter).every(([key, value]) => {
    if (key === "AND") return (value as Filter[]).every((f) => matches(c, f));
    if (key === "OR") return (value as Filter[]).some((f) => matches(c, f));
    if (key === "NOT") return !(Array.isArray(value) ? value : [value]).some((f: Filter) => matches(c, f));
    if (key === "recipient") return Object.entries(value as Filter).every(([sub, v]) => fieldMatches(c, `recipient.${sub}`, v));
    if (!(key in FIELDS)) throw new Error(`reference: unknown field ${key}`);
    return fieldMatches(c, key, value);
  });
}

// ---- datasets --------------------------------------------------------------------------------------

const NAMES = [
  "Ada Lovelace",
  "ada lovelace",
  "ADA LOVELACE",
  "Zoë",
  "ZOË",
  "zoë Ångström",
  "Zoe Angstrom",
  "ÅSA",
  "åsa berg",
  "o'brien",
  "O'Brien",
  "100%_done",
  "100 done",
  "a_b",
  "axb",
  "a%b",
  "Grace Hopper",
  "ﬁona",
  "Ünal Çelik",
];
const EMAILS = [
  "ada@example.com",
  "ADA@Example.com",
  "zoe@example.org",
  "ZOE@EXAMPLE.ORG",
  "asa@example.se",
  "obrien@example.ie",
  "o'brien@example.ie",
  "under_score@example.com",
  "underxscore@example.com",
  "grace@navy.example",
  "fiona@example.de",
];

type Kindness = "draft" | "issued" | "scheduled" | "expired";
type Spec = {
  group: number;
  name: string;
  email: string | null;
  kind: Kindness;
  issue: number | null;
  expiry: number | null;
  patch: boolean;
  remove: boolean;
};

/** Issue / expiry offsets in days from today that make each status; `null` issue means "leave it to the default". */
const specArb = (groups: number): fc.Arbitrary<Spec> =>
  fc
    .record({
      group: fc.nat({ max: groups - 1 }),
      name: fc.constantFrom(...NAMES),
      email: fc.option(fc.constantFrom(...EMAILS), { freq: 3 }),
      kind: fc.constantFrom<Kindness>("draft", "draft", "issued", "issued", "scheduled", "expired"),
      a: fc.constantFrom(-400, -30, -2, -1, 0, 1, 2, 30, 400),
      b: fc.constantFrom(0, 1, 2, 30, 365),
      withExpiry: fc.boolean(),
      defaultIssue: fc.boolean(),
      patch: fc.boolean(),
      remove: fc.nat({ max: 24 }).map((n) => n === 0),
    })
    .map(({ group, name, email, kind, a, b, withExpiry, defaultIssue, patch, remove }) => {
      let issue: number;
      let expiry: number | null = null;
      switch (kind) {
        case "draft":
          issue = a;
          if (withExpiry) expiry = a + b;
          break;
        case "issued":
          issue = Math.min(a, 0);
          if (withExpiry) expiry = Math.max(issue + b, 0); // today or later
          break;
        case "scheduled":
          issue = Math.max(a, 1);
          if (withExpiry) expiry = issue + b;
          break;
        case "expired":
          issue = Math.min(a, -2);
          expiry = Math.min(issue + b, -1);
          break;
      }
      return { group, name, email, kind, issue: defaultIssue && issue === 0 ? null : issue, expiry, patch, remove };
    });

type Dataset = { credentials: Credential[]; groups: string[] };

async function buildDataset(api: APIRequestContext, specs: Spec[], groupCount: number): Promise<Dataset> {
  const groups: string[] = [];
  for (let g = 0; g < groupCount; g++) {
    // The second group gives its credentials a default expiry a year after their issue date.
    groups.push((await newGroup(api, g === 1 ? { expiryPeriod: { amount: 1, unit: "year" } } : {})).id);
  }
  const today = todayUtc();
  // Four at a time: faster, and credentials made in the same millisecond test the tie-break on id.
  const queue = [...specs];
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) await make(s);
  };
  const make = async (s: Spec) => {
    const body: Record<string, unknown> = {
      groupId: groups[s.group],
      recipient: { name: s.name, ...(s.email ? { email: s.email } : {}) },
      ...(s.issue !== null ? { issueDate: addDays(today, s.issue) } : {}),
      ...(s.expiry !== null ? { expiryDate: addDays(today, s.expiry) } : {}),
    };
    const c: Credential = await postJson(api, "/v1/credentials", body, 201);
    if (s.kind !== "draft") await postJson(api, `/v1/credentials/${c.id}/issue`, undefined, 200);
    if (s.patch) {
      const res = await withRateLimit(() => api.patch(`/v1/credentials/${c.id}`, { data: { customAttributes: { "custom.n": "x" } } }));
      expect(res.status(), await res.text()).toBe(200);
    }
    if (s.remove) expect((await withRateLimit(() => api.delete(`/v1/credentials/${c.id}`))).status()).toBe(204);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { credentials: await allCredentials(api), groups };
}

// ---- filters -------------------------------------------------------------------------------------

const OPS: Record<Kind, string[]> = {
  identifier: ["equals", "not", "in", "notIn"],
  enum: ["equals", "not", "in", "notIn"],
  string: ["equals", "not", "in", "notIn", "contains", "startsWith", "endsWith"],
  date: ["equals", "not", "in", "notIn", "gt", "gte", "lt", "lte"],
  datetime: ["equals", "not", "in", "notIn", "gt", "gte", "lt", "lte"],
};

const OFFSETS = ["Z", "+00:00", "+02:00", "-05:30", "+14:00"];

/** Random case per character (only where it round-trips, so the text stays the same word). */
const recase = (s: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((flags) =>
    [...s]
      .map((ch, i) => {
        const up = ch.toUpperCase();
        const alt = flags[i] ? up : ch.toLowerCase();
        return alt.length === 1 && alt.toLowerCase() === ch.toLowerCase() ? alt : ch;
      })
      .join(""),
  );

function pools(data: Dataset): Record<Field, string[]> {
  const cs = data.credentials;
  const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => typeof x === "string"))];
  return {
    id: uniq(cs.map((c) => c.id)),
    publicId: uniq(cs.map((c) => c.publicId)),
    groupId: uniq([...cs.map((c) => c.groupId), ...data.groups]),
    recipientId: uniq(cs.map((c) => c.recipient?.id)),
    status: ["draft", "scheduled", "issued", "expired"],
    "recipient.name": uniq([...cs.map((c) => c.recipient?.name), ...NAMES]),
    "recipient.email": uniq([...cs.map((c) => c.recipient?.email), ...EMAILS]),
    issueDate: uniq(cs.map((c) => c.issueDate)),
    expiryDate: uniq(cs.map((c) => c.expiryDate)),
    createdAt: uniq(cs.map((c) => c.createdAt)),
    updatedAt: uniq(cs.map((c) => c.updatedAt)),
  };
}

/** A value of the field's kind, near the data (equal, or just beside it). */
function valueArb(field: Field, pool: string[], op: string): fc.Arbitrary<string> {
  const { kind } = FIELDS[field]!;
  const from = pool.length ? fc.constantFrom(...pool) : fc.constant("2026-01-01");
  switch (kind) {
    case "identifier":
      return fc.oneof(
        { weight: 9, arbitrary: from },
        { weight: 1, arbitrary: fc.constantFrom("cred_unknown", "00000000-0000-4000-8000-000000000000") },
      );
    case "enum":
      return from;
    case "string":
      return from.chain((s) => {
        const chars = [...s];
        const piece =
          op === "contains"
            ? fc
                .tuple(fc.nat({ max: chars.length - 1 }), fc.integer({ min: 1, max: chars.length }))
                .map(([i, n]) => chars.slice(i, i + n).join("") || s)
            : op === "startsWith"
              ? fc.integer({ min: 1, max: chars.length }).map((n) => chars.slice(0, n).join(""))
              : op === "endsWith"
                ? fc.integer({ min: 1, max: chars.length }).map((n) => chars.slice(-n).join(""))
                : fc.constant(s);
        return piece.chain(recase);
      });
    case "date":
      return fc.tuple(from, fc.constantFrom(0, 0, 0, -1, 1)).map(([d, delta]) => addDays(d, delta));
    case "datetime":
      return fc
        .tuple(
          from,
          fc.constantFrom(0, 0, 0, 1, -1, 1000, -1000, 999, -999_000),
          fc.constantFrom(...OFFSETS),
          fc.constantFrom<3 | 6>(3, 6, 6),
        )
        .map(([t, micros, offset, digits]) => formatInstant(t, { deltaMicros: micros, offset, digits: micros % 1000 === 0 ? digits : 6 }));
  }
}

/** One field's condition: a literal, null, or an object of 1..2 operators. */
function conditionArb(field: Field, pool: string[]): fc.Arbitrary<unknown> {
  const { kind, nullable } = FIELDS[field]!;
  const ops = OPS[kind];
  const operand = (op: string): fc.Arbitrary<unknown> => {
    if (op === "in" || op === "notIn") {
      return fc.oneof(
        { weight: 12, arbitrary: fc.array(valueArb(field, pool, op), { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constant([]) },
      );
    }
    if (nullable && (op === "equals" || op === "not"))
      return fc.oneof({ weight: 4, arbitrary: valueArb(field, pool, op) }, { weight: 1, arbitrary: fc.constant(null) });
    return valueArb(field, pool, op);
  };
  const one: fc.Arbitrary<string[]> = fc.constantFrom(...ops).map((op) => [op]);
  const two: fc.Arbitrary<string[]> = fc.uniqueArray(fc.constantFrom(...ops), { minLength: 2, maxLength: 2 });
  const object = fc
    .oneof({ weight: 3, arbitrary: one }, { weight: 1, arbitrary: two })
    .chain((chosen) => fc.tuple(...chosen.map((op) => operand(op).map((v) => [op, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));
  const literal = nullable
    ? fc.oneof({ weight: 5, arbitrary: valueArb(field, pool, "equals") }, { weight: 1, arbitrary: fc.constant(null) })
    : valueArb(field, pool, "equals");
  return fc.oneof({ weight: 1, arbitrary: literal }, { weight: 3, arbitrary: object });
}

/** A filter object: up to 3 field conditions (dotted or nested recipient keys) and, above depth 0, combinators. */
function filterArb(p: Record<Field, string[]>, depth: number): fc.Arbitrary<Filter> {
  const fieldNames = Object.keys(FIELDS);
  const conditions = (min: number, max: number) =>
    fc
      .uniqueArray(fc.constantFrom(...fieldNames), { minLength: min, maxLength: max })
      .chain((fs) => fc.tuple(...fs.map((field) => fc.tuple(fc.constant(field), conditionArb(field, p[field] ?? []), fc.boolean()))))
      .map((triples) => {
        const out: Filter = {};
        for (const [field, cond, nestedSpelling] of triples) {
          if (field.startsWith("recipient.") && nestedSpelling) {
            const recipient = (out.recipient ??= {}) as Filter;
            recipient[field.slice("recipient.".length)] = cond;
          } else out[field] = cond;
        }
        return out;
      });
  const leaf = fc.oneof({ weight: 6, arbitrary: conditions(1, 2) }, { weight: 1, arbitrary: conditions(0, 0) });
  if (depth === 0) return leaf;
  const sub = filterArb(p, depth - 1);
  const list = (max: number) =>
    fc.oneof({ weight: 10, arbitrary: fc.array(sub, { minLength: 1, maxLength: max }) }, { weight: 1, arbitrary: fc.constant([]) });
  const combinator = fc.oneof(
    fc.record({ AND: list(3) }),
    fc.record({ OR: list(3) }),
    fc.record({ NOT: sub }),
    fc.record({ NOT: list(2) }),
    fc.record({ OR: list(3), NOT: sub }, { requiredKeys: [] }),
  );
  return fc.oneof(
    { weight: 2 + (3 - depth), arbitrary: leaf },
    { weight: 2, arbitrary: combinator },
    { weight: 1, arbitrary: fc.tuple(conditions(1, 2), combinator).map(([a, b]) => ({ ...a, ...b })) },
  );
}

const sortArb: fc.Arbitrary<Sort | null> = fc.option(
  fc.record({ property: fc.constantFrom(...SORT_PROPERTIES), order: fc.constantFrom<"asc" | "desc">("asc", "desc") }),
  { freq: 4 },
);
const limitArb = (small: boolean): fc.Arbitrary<number | undefined> =>
  small
    ? fc.constantFrom(1, 2, 3)
    : fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(2, 3) },
        { weight: 3, arbitrary: fc.integer({ min: 4, max: 15 }) },
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom(50, 100) },
      );

// ---- the property --------------------------------------------------------------------------------

type Run = { filter: Filter; sort: Sort | null; limit: number | undefined; repeat: boolean; back: boolean };

function explain(data: Dataset, ids: string[]): string[] {
  return ids.map((id) => {
    const c = data.credentials.find((x) => x.id === id);
    return c ? `${id.slice(-6)} ${c.status} ${JSON.stringify(c.recipient?.name ?? null)} ${c.issueDate}/${c.expiryDate}` : `? ${id}`;
  });
}

async function checkRun(api: APIRequestContext, data: Dataset, run: Run, seed: number): Promise<void> {
  const expected = sortCredentials(
    data.credentials.filter((c) => matches(c, run.filter)),
    run.sort ?? undefined,
  ).map((c) => c.id);
  const body = { filter: run.filter, ...(run.sort ? { sort: run.sort } : {}), ...(run.limit !== undefined ? { limit: run.limit } : {}) };
  const context = `seed ${seed}\nbody ${JSON.stringify(body)}${run.repeat ? "" : " (cursor requests without filter/sort)"}`;
  const walk = await walkForward(api, body, { repeat: run.repeat ? "all" : "none", maxPages: 200 });
  expect(explain(data, walk.ids), `${context}\nexpected ids ${JSON.stringify(expected)}\nactual ids ${JSON.stringify(walk.ids)}`).toEqual(
    explain(data, expected),
  );

  const limit = run.limit ?? 20;
  const sizes = walk.pages.map((p) => p.data.length);
  expect(
    sizes.slice(0, -1).every((n) => n === limit) && sizes.at(-1)! <= limit && (sizes.length === 1 || sizes.at(-1)! > 0),
    `${context}\npage sizes ${sizes.join(",")}`,
  ).toBe(true);
  expect(walk.pages[0]!.pagination.prev, context).toBeNull();
  for (const p of walk.pages.slice(1)) expect(p.pagination.prev, `${context}: prev after the first page`).toEqual(expect.any(String));

  if (run.back && walk.pages.length > 1) {
    const back: SearchPage[] = [walk.pages.at(-1)!];
    let cursor = back[0]!.pagination.prev;
    while (cursor) {
      back.push(await searchPage(api, { ...(run.repeat ? body : { limit: run.limit }), cursor }));
      cursor = back.at(-1)!.pagination.prev;
      expect(back.length, context).toBeLessThanOrEqual(walk.pages.length);
    }
    expect(back.map((p) => p.data.map((c) => c.id)).reverse(), `${context}: walking prev from the last page gives the same pages`).toEqual(
      walk.pages.map((p) => p.data.map((c) => c.id)),
    );
  }
}

function seedFor(label: string): number {
  const fromEnv = process.env.SEARCH_PROPERTY_SEED;
  const seed = fromEnv ? Number(fromEnv) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  test.info().annotations.push({ type: "seed", description: `${label}: SEARCH_PROPERTY_SEED=${seed}` });
  return seed;
}

async function property(
  api: APIRequestContext,
  options: { label: string; size: [number, number]; groups: number; runs: number; smallLimits: boolean; depth: number },
): Promise<void> {
  const seed = seedFor(options.label);
  const [n] = fc.sample(fc.integer({ min: options.size[0], max: options.size[1] }), { seed, numRuns: 1 });
  const specs = fc.sample(fc.array(specArb(options.groups), { minLength: n!, maxLength: n! }), { seed: seed + 1, numRuns: 1 })[0]!;
  const data = await buildDataset(api, specs, options.groups);
  expect(data.credentials.length).toBe(specs.filter((s) => !s.remove).length);
  const p = pools(data);

  const runArb = fc.record({
    filter: filterArb(p, options.depth),
    sort: sortArb,
    limit: limitArb(options.smallLimits),
    repeat: fc.boolean(),
    back: fc.nat({ max: 3 }).map((x) => x === 0),
  });
  let matchedSome = 0;
  try {
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        await checkRun(api, data, run, seed);
        if (data.credentials.some((c) => matches(c, run.filter))) matchedSome++;
      }),
      { seed: seed + 2, numRuns: options.runs, endOnFailure: false, interruptAfterTimeLimit: 150_000 },
    );
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `\n\nThe failure:\n${error.cause.message}` : "";
    throw new Error(`${options.label}: SEARCH_PROPERTY_SEED=${seed}\n${error instanceof Error ? error.message : String(error)}${cause}`);
  }
  // The generated filters are about the data: a good share of them match something.
  expect(matchedSome, `seed ${seed}`).toBeGreaterThan(options.runs / 4);
}

test.describe("POST /v1/credentials/search: random filters against a reference evaluator", () => {
  test("a dataset of 40–60 credentials, 120 filters up to 3 deep, random sort and limit", async ({ api }) => {
    await property(api, { label: "wide", size: [40, 60], groups: 3, runs: 120, smallLimits: false, depth: 3 });
  });

  test("a dataset of 12–20 credentials with many ties, 60 filters, limits 1..3, forward and back", async ({ api }) => {
    await property(api, { label: "paging", size: [12, 20], groups: 2, runs: 60, smallLimits: true, depth: 2 });
  });

  test("the reference evaluator agrees with the contract's worked examples", async () => {
    // Guards the guard: the README's own examples, on hand-made objects.
    const base: Credential = {
      id: "cred_1",
      publicId: "00000000-0000-4000-8000-000000000001",
      groupId: "grp_1",
      status: "issued",
      recipient: null,
      issueDate: "2026-01-01",
      expiryDate: null,
      attributes: { "recipient.name": "Zoë" },
      customAttributes: {},
      revokedAt: null,
      revocationReason: null,
      createdAt: "2026-01-31T12:00:00.123Z",
      updatedAt: "2026-01-31T12:00:00.123Z",
    };
    const withR = { ...base, id: "cred_2", recipient: { id: "rcp_1", name: "Zoë", email: "Z@x.org" }, expiryDate: "2026-06-01" };
    expect(matches(base, { expiryDate: { lt: "2030-01-01" } })).toBe(false);
    expect(matches(base, { expiryDate: { not: "2030-01-01" } })).toBe(true);
    expect(matches(base, { expiryDate: { notIn: ["2030-01-01"] } })).toBe(true);
    expect(matches(base, { NOT: { expiryDate: { lt: "2030-01-01" } } })).toBe(true);
    expect(matches(base, { "recipient.name": { contains: "zo" } })).toBe(false);
    expect(matches(base, { "recipient.name": null })).toBe(true);
    expect(matches(withR, { recipient: { name: { contains: "ZOË" } } })).toBe(true);
    expect(matches(withR, { "recipient.email": "z@X.ORG" })).toBe(true);
    expect(matches(base, { AND: [], NOT: [] })).toBe(true);
    expect(matches(base, { OR: [] })).toBe(false);
    expect(matches(base, { id: { in: [] } })).toBe(false);
    expect(matches(base, { id: { notIn: [] } })).toBe(true);
    expect(matches(base, { createdAt: "2026-01-31T14:00:00.123000+02:00" })).toBe(true);
    expect(matches(base, { createdAt: { gt: "2026-01-31T12:00:00.123001Z" } })).toBe(false);
    expect(matches(base, { createdAt: { lt: "2026-01-31T12:00:00.123001Z" } })).toBe(true);
    expect(sortCredentials([base, withR], { property: "expiryDate", order: "asc" }).map((c) => c.id)).toEqual(["cred_2", "cred_1"]);
    expect(sortCredentials([base, withR], { property: "expiryDate", order: "desc" }).map((c) => c.id)).toEqual(["cred_2", "cred_1"]);
    expect(sortCredentials([base, { ...base, id: "cred_0" }], { property: "issueDate", order: "desc" }).map((c) => c.id)).toEqual([
      "cred_1",
      "cred_0",
    ]);
  });
});
