// npm run bench:search — latency of POST /v1/credentials/search on a large table, through the built app.
//
// Seeds BENCH_SEARCH_ROWS (default 1,000,000) credentials of one organization, plus two small other
// organizations, into a fresh SQLite file and (with BENCH_POSTGRES_URL, any database on a server the
// bench may create databases on) into a fresh scratch PostgreSQL database that is dropped afterwards.
// The schema is the app's own (lib/db/migrate.ts); the rows go in with plain multi-row INSERTs
// (scripts/bench/search-dataset.ts), then ANALYZE (PostgreSQL: VACUUM ANALYZE). Then it starts the app on each database (`npm start`, background
// work off) and times typical searches: BENCH_SEARCH_REQUESTS (200) sequential requests after 20 to
// warm up, p50/p95 and req/s, then the same at 10 connections; and a cursor walk of 1,000 pages,
// timing page 1 against pages 990-1000. Prints markdown tables. Index-served searches should answer
// within 50 ms at p95; recipient substrings (`contains`, `startsWith`, `endsWith`) use the trigram indexes.
//
// The machine's load average is printed beside each figure: on a shared machine other work shows up in
// p95. A server that dies under the benchmark (killed from outside) is started again and the step repeated.
// BENCH_SEARCH_KEEP=1 keeps both databases afterwards (their URLs are printed) to look at query plans.
//
// Seeding a million rows takes minutes on a busy machine; BENCH_SEARCH_REUSE=DIR seeds once and measures
// many times (scripts/bench/search-reuse.ts): the SQLite file lives in DIR and the PostgreSQL database
// gets a fixed name on BENCH_POSTGRES_URL's server; both keep the dataset's description in a table, so a
// later run with the same BENCH_SEARCH_ROWS only applies new migrations and measures. Neither is deleted.
// BENCH_SEARCH_ONLY=regex times only the queries whose name matches (and skips the cursor walks).
// BENCH_SEARCH_TRGM=0 drops PostgreSQL's trigram indexes for the run (the fallback a server without
// pg_trgm gets) and creates them again at the end.
//
// Every answer is checked too (status 200, the page's credentials match the filter, order, the walk
// returns distinct credentials), so a fast wrong answer cannot pass for a fast one.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations } from "@/lib/db/migrate";
import { normalizeName } from "@/lib/recipients/service";
import { startBenchServer, type BenchServer } from "./bench/app-server";
import { runLoad } from "./bench/load";
import { createScratchDatabase } from "../test/support/db/postgres-scratch";
import { seedSearchDataset, type SearchDataset, type SeedResult } from "./bench/search-dataset";
import { emptyDatabase, loadKeptDataset, keepDataset, reusableDatabases, withoutTrigramIndexes } from "./bench/search-reuse";

const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const WARM_UP = 20;
const CONCURRENCY = 10;
const LIMIT = 20;
// A 1,000-page walk needs 20,000 matching rows; smaller tables (while developing) walk half of theirs.
const WALK_PAGES = Math.max(12, Math.min(Number(process.env.BENCH_SEARCH_WALK_PAGES ?? 1000), Math.floor(ROWS / LIMIT / 2)));
const DEEP_PAGES = 11; // the last pages of the walk, timed like page 1
const TARGET_P95_MS = 50;
const KEEP = process.env.BENCH_SEARCH_KEEP === "1";
const REUSE_DIR = process.env.BENCH_SEARCH_REUSE || null;
const ONLY = process.env.BENCH_SEARCH_ONLY ? new RegExp(process.env.BENCH_SEARCH_ONLY, "i") : null;
const TRIGRAM_INDEXES = process.env.BENCH_SEARCH_TRGM !== "0";

type Credential = {
  id: string;
  groupId: string;
  status: string;
  recipient: { id: string; name: string; email: string } | null;
  issueDate: string;
  expiryDate: string | null;
  createdAt: string;
};
type SearchPage = { data: Credential[]; pagination: { prev: string | null; next: string | null } };

type Query = {
  name: string;
  /** Whether an index can deliver the page (the 50 ms target applies). */
  indexed: boolean;
  /** The i-th request's body. */
  body: (i: number) => Record<string, unknown>;
  /** Why the i-th answer is wrong, or null when it is right. */
  check?: (page: SearchPage, i: number) => string | null;
};

type Figures = {
  database: string;
  query: string;
  p50: number;
  p95: number;
  rps: number;
  concurrentRps: number;
  concurrentP95: number;
  matches: string;
  indexed: boolean;
  wrong: string[];
  /** The machine's 1-minute load average when the sequential requests started and ended (others' work shows here). */
  load: [number, number];
};

const log = (line: string) => console.log(line);

function sortedBy<T>(items: T[], key: (item: T) => string | null, order: "asc" | "desc"): boolean {
  for (let k = 1; k < items.length; k++) {
    const [a, b] = [key(items[k - 1]!), key(items[k]!)];
    if (a === null) {
      if (b !== null) return false; // nulls last
      continue;
    }
    if (b === null) continue;
    if (order === "asc" ? a > b : a < b) return false;
  }
  return true;
}

/** Needles shorter than a trigram that some names hold: surnames written in one or two characters, and one letter. */
const SHORT_SUBSTRINGS = ["王", "김", "佐藤", "田中", "ø"];

function queries(dataset: SearchDataset): Query[] {
  const { emails, groupIds, nameSubstrings } = dataset;
  const everyStatus = (status: string, expected: boolean) => (page: SearchPage) =>
    page.data.every((c) => (c.status === status) === expected) ? null : `a credential whose status is${expected ? " not" : ""} ${status}`;
  const newestFirst = (page: SearchPage) => (sortedBy(page.data, (c) => c.createdAt, "desc") ? null : "not newest first");
  const groupPair = (i: number): [string, string] => {
    const a = groupIds[i % groupIds.length]!;
    const b = groupIds[(i * 7 + 3) % groupIds.length]!;
    return [a, b === a ? groupIds[(i + 1) % groupIds.length]! : b];
  };
  return [
    {
      name: "status issued, default sort",
      indexed: true,
      body: () => ({ filter: { status: "issued" } }),
      check: (p) => everyStatus("issued", true)(p) ?? newestFirst(p),
    },
    {
      name: "status draft, default sort",
      indexed: true,
      body: () => ({ filter: { status: "draft" } }),
      check: (p) => everyStatus("draft", true)(p) ?? newestFirst(p),
    },
    {
      name: "recipient.email equals (a different one each request)",
      indexed: true,
      body: (i) => ({ filter: { "recipient.email": emails[i % emails.length]!.email } }),
      check: (page, i) => {
        const { email, credentials } = emails[i % emails.length]!;
        if (page.data.some((c) => c.recipient?.email.toLowerCase() !== email.toLowerCase())) return "a credential of another recipient";
        // The same emails exist in the other organizations: more than this organization has means leaked rows.
        return page.data.length === Math.min(LIMIT, credentials)
          ? null
          : `${page.data.length} credentials for ${email}, expected ${Math.min(LIMIT, credentials)}`;
      },
    },
    {
      name: `recipient.name contains (${nameSubstrings.length} substrings in turn)`,
      indexed: true,
      body: (i) => ({ filter: { "recipient.name": { contains: nameSubstrings[i % nameSubstrings.length]! } } }),
      check: (page, i) => {
        const needle = normalizeName(nameSubstrings[i % nameSubstrings.length]!);
        return page.data.every((c) => c.recipient && normalizeName(c.recipient.name).includes(needle))
          ? null
          : `a name without "${needle}"`;
      },
    },
    {
      name: "recipient.name contains, no match (worst case)",
      indexed: true,
      body: () => ({ filter: { "recipient.name": { contains: "qxzj" } } }),
      check: (page) => (page.data.length === 0 ? null : "matches for a substring no name has"),
    },
    {
      name: `recipient.name contains 1 or 2 characters (${SHORT_SUBSTRINGS.join(", ")} in turn)`,
      indexed: true,
      body: (i) => ({ filter: { "recipient.name": { contains: SHORT_SUBSTRINGS[i % SHORT_SUBSTRINGS.length]! } } }),
      check: (page, i) => {
        const needle = normalizeName(SHORT_SUBSTRINGS[i % SHORT_SUBSTRINGS.length]!);
        return page.data.length > 0 && page.data.every((c) => c.recipient && normalizeName(c.recipient.name).includes(needle))
          ? null
          : `no match, or a name without "${needle}"`;
      },
    },
    {
      // Two characters are shorter than a trigram: only the character-pair index can narrow them.
      name: "recipient.name contains 2 characters, no match (no trigram)",
      indexed: true,
      body: () => ({ filter: { "recipient.name": { contains: "qx" } } }),
      check: (page) => (page.data.length === 0 ? null : "matches for a substring no name has"),
    },
    {
      name: "recipient.name startsWith a first name",
      indexed: true,
      body: (i) => ({ filter: { "recipient.name": { startsWith: ["Emma ", "hugo", "Rosa M"][i % 3]! } } }),
      check: (page, i) => {
        const needle = normalizeName(["Emma ", "hugo", "Rosa M"][i % 3]!);
        return page.data.every((c) => c.recipient && normalizeName(c.recipient.name).startsWith(needle))
          ? null
          : `a name not starting with "${needle}"`;
      },
    },
    {
      name: "recipient.email endsWith a domain (one in six)",
      indexed: true,
      body: () => ({ filter: { "recipient.email": { endsWith: "@uni.example.edu" } } }),
      check: (page) =>
        page.data.length > 0 && page.data.every((c) => c.recipient?.email.toLowerCase().endsWith("@uni.example.edu"))
          ? null
          : "an email outside the domain",
    },
    {
      name: "recipient.email contains a local part",
      indexed: true,
      body: (i) => ({ filter: { "recipient.email": { contains: ["anna.smith", "wagner1", "olivia.koch"][i % 3]! } } }),
      check: (page, i) => {
        const needle = ["anna.smith", "wagner1", "olivia.koch"][i % 3]!;
        return page.data.every((c) => c.recipient?.email.toLowerCase().includes(needle)) ? null : `an email without "${needle}"`;
      },
    },
    {
      name: "issueDate in 2024-Q1, sort issueDate desc",
      indexed: true,
      body: () => ({ filter: { issueDate: { gte: "2024-01-01", lt: "2024-04-01" } }, sort: { property: "issueDate", order: "desc" } }),
      check: (page) =>
        !page.data.every((c) => c.issueDate >= "2024-01-01" && c.issueDate < "2024-04-01")
          ? "an issue date outside the range"
          : sortedBy(page.data, (c) => c.issueDate, "desc")
            ? null
            : "not sorted by issueDate desc",
    },
    {
      name: "OR of two groups (a different pair each request)",
      indexed: true,
      body: (i) => ({ filter: { OR: groupPair(i).map((groupId) => ({ groupId })) } }),
      check: (page, i) =>
        (page.data.every((c) => groupPair(i).includes(c.groupId)) ? null : "a credential of another group") ?? newestFirst(page),
    },
    {
      name: "NOT status issued",
      indexed: true,
      body: () => ({ filter: { NOT: { status: "issued" } } }),
      check: (p) => everyStatus("issued", false)(p) ?? newestFirst(p),
    },
  ];
}

function search(
  server: BenchServer,
  token: string,
  connections: number,
  count: number,
  body: (i: number) => string,
  onResponse?: (i: number, status: number, text: string, ms: number) => void,
) {
  return runLoad({
    url: `${server.url}/v1/credentials/search`,
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Service-Version": "2022-10-26" },
    connections,
    seconds: 3600,
    maxRequests: count,
    body,
    onResponse,
  });
}

const requestBody = (query: Query, offset: number) => (i: number) => JSON.stringify({ ...query.body(offset + i), limit: LIMIT });

/** Times one query: WARM_UP requests, REQUESTS sequential requests, then REQUESTS at CONCURRENCY connections. */
async function measure(server: BenchServer, token: string, database: string, query: Query): Promise<Figures> {
  const wrong: string[] = [];
  const matches: number[] = [];
  const inspect = (offset: number) => (i: number, status: number, text: string) => {
    if (status !== 200) {
      wrong.push(`HTTP ${status}: ${text.slice(0, 300)}`);
      return;
    }
    const page = JSON.parse(text) as SearchPage;
    matches.push(page.data.length);
    const problem = query.check?.(page, offset + i);
    if (problem) wrong.push(problem);
  };
  await search(server, token, 1, WARM_UP, requestBody(query, 0), inspect(0));
  matches.length = 0;
  const loadBefore = loadavg()[0]!;
  const sequential = await search(server, token, 1, REQUESTS, requestBody(query, WARM_UP), inspect(WARM_UP));
  const loadAfter = loadavg()[0]!;
  const concurrent = await search(server, token, CONCURRENCY, REQUESTS, requestBody(query, WARM_UP + REQUESTS));
  if (sequential.requests < REQUESTS) wrong.push(`${REQUESTS - sequential.requests} of ${REQUESTS} sequential requests got no answer`);
  if (concurrent.errors) wrong.push(`${concurrent.errors} failed requests at ${CONCURRENCY} connections`);
  return {
    database,
    query: query.name,
    p50: sequential.p50,
    p95: sequential.p95,
    rps: sequential.rps,
    concurrentRps: concurrent.rps,
    concurrentP95: concurrent.p95,
    matches: describeMatches(matches),
    indexed: query.indexed,
    wrong,
    load: [loadBefore, loadAfter],
  };
}

function describeMatches(counts: number[]): string {
  if (!counts.length) return "-";
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  if (min === max) return String(min);
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  return `${mean.toFixed(1)} (${min}-${max})`;
}

/**
 * Walks `next` from the first page for WALK_PAGES pages; returns the bodies that fetch the last
 * DEEP_PAGES pages (to time them again) and the walk's own figures.
 */
async function walk(
  server: BenchServer,
  token: string,
  first: Record<string, unknown>,
  sortKey: (c: Credential) => string | null,
  order: "asc" | "desc",
) {
  const bodies: string[] = [];
  const seen = new Set<string>();
  const wrong: string[] = [];
  let last: Credential | undefined;
  let next: string | null = null;
  const result = await search(
    server,
    token,
    1,
    WALK_PAGES,
    (i) => {
      // A next request may leave filter and sort out (docs/api.md, Search; lib/search/README.md).
      const body = JSON.stringify(i === 0 ? { ...first, limit: LIMIT } : { cursor: next, limit: LIMIT });
      bodies.push(body);
      return body;
    },
    (_i, status, text) => {
      if (status !== 200) {
        wrong.push(`HTTP ${status}: ${text.slice(0, 300)}`);
        next = null;
        return;
      }
      const page = JSON.parse(text) as SearchPage;
      for (const c of page.data) {
        if (seen.has(c.id)) wrong.push(`${c.id} twice`);
        seen.add(c.id);
      }
      const withPrevious = last ? [last, ...page.data] : page.data;
      if (!sortedBy(withPrevious, sortKey, order)) wrong.push("pages out of order");
      last = page.data[page.data.length - 1] ?? last;
      next = page.pagination.next;
      if (page.data.length !== LIMIT || !next) wrong.push(`a short page (${page.data.length} credentials, next ${next ? "set" : "null"})`);
    },
  );
  if (result.requests < WALK_PAGES) wrong.push(`${WALK_PAGES - result.requests} of ${WALK_PAGES} pages got no answer`);
  if (wrong.length) throw new Error(`cursor walk failed: ${[...new Set(wrong)].slice(0, 5).join("; ")}`);
  return { deepBodies: bodies.slice(-DEEP_PAGES), credentials: seen.size, seconds: result.seconds, p50: result.p50, p95: result.p95 };
}

/** Times fixed request bodies (cursor pages) in turn, as measure() does. */
function fixedBodies(name: string, bodies: string[], check: Query["check"]): Query {
  return { name, indexed: true, body: (i) => JSON.parse(bodies[i % bodies.length]!) as Record<string, unknown>, check };
}

/**
 * The app on one database. On a shared machine a server can die under the benchmark (killed from outside:
 * it prints nothing); then it is started again and the step repeated once, and the output says so.
 */
class App {
  private server: BenchServer | null = null;
  private stopping = false;
  /** Steps repeated because the server died under them. */
  readonly repeated: string[] = [];
  constructor(
    private readonly databaseUrl: string,
    private readonly warmUp: (server: BenchServer) => Promise<unknown>,
  ) {}

  private alive(): boolean {
    return this.server !== null && this.server.process.exitCode === null && this.server.process.signalCode === null;
  }

  private async start() {
    const server = await startBenchServer({ DATABASE_URL: this.databaseUrl, CIS_BACKGROUND: "off" }, { expectDemoToken: false });
    server.process.once("exit", (code, signal) => {
      if (!this.stopping) log(`  !! the server exited unexpectedly (${signal ?? `code ${code}`})`);
    });
    this.server = server;
    await this.warmUp(server);
  }

  async step<T>(name: string, work: (server: BenchServer) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (!this.alive()) await this.start();
      let result: T;
      try {
        result = await work(this.server!);
      } catch (error) {
        if (this.alive() || attempt > 1) throw error;
        this.repeat(name);
        continue;
      }
      if (this.alive()) return result;
      if (attempt > 1) throw new Error(`the server died twice during "${name}"`);
      this.repeat(name);
    }
  }

  private repeat(name: string) {
    log(`  the server died during "${name}"; starting it again and repeating that`);
    this.repeated.push(name);
  }

  async stop() {
    this.stopping = true;
    await this.server?.stop();
  }
}

async function benchDatabase(database: string, databaseUrl: string) {
  let seed: SeedResult | null = REUSE_DIR ? await loadKeptDataset(databaseUrl) : null;
  // A kept database without its description was left half seeded: start it again from empty.
  if (REUSE_DIR && !seed) await emptyDatabase(databaseUrl, process.env.BENCH_POSTGRES_URL);
  const applied = await applyMigrations(databaseUrl);
  if (seed) {
    log(
      `\n${database}: reusing the ${seed.dataset.counts.totalRows.toLocaleString("en")} rows seeded earlier (applied ${applied.length} new migration(s))`,
    );
  } else {
    log(`\n${database}: migrated (${applied.length} migration(s)); seeding ${ROWS.toLocaleString("en")} credentials`);
    seed = await seedSearchDataset(databaseUrl, ROWS, log);
    log(
      `  seeded ${seed.dataset.counts.totalRows.toLocaleString("en")} rows in ${seed.seconds.toFixed(1)} s (${seed.rowsPerSecond.toFixed(0)} rows/s)`,
    );
    if (REUSE_DIR) await keepDataset(databaseUrl, seed);
  }
  if (database === "PostgreSQL" && !TRIGRAM_INDEXES) {
    return withoutTrigramIndexes(databaseUrl, log, () => measureDatabase(database + " (no pg_trgm)", databaseUrl, seed));
  }
  return measureDatabase(database, databaseUrl, seed);
}

async function measureDatabase(database: string, databaseUrl: string, seed: SeedResult) {
  const token = seed.dataset.token;
  const list = queries(seed.dataset).filter((q) => !ONLY || ONLY.test(q.name));
  // A fresh server's first requests (JIT, statement caches, the database's cache) count for no query.
  const app = new App(databaseUrl, async (server) => {
    for (const query of list) await search(server, token, 1, 10, requestBody(query, 0));
  });
  const figures: Figures[] = [];
  const walks: string[] = [];
  try {
    for (const query of list) {
      log(`  ${query.name}`);
      figures.push(await app.step(query.name, (server) => measure(server, token, database, query)));
    }
    const walksToTime: [string, Record<string, unknown>, (c: Credential) => string | null, "asc" | "desc"][] = [
      ["default sort (createdAt desc)", {}, (c) => c.createdAt, "desc"],
      ["sort expiryDate asc (nulls last)", { sort: { property: "expiryDate", order: "asc" } }, (c) => c.expiryDate, "asc"],
    ];
    for (const [name, first, key, order] of ONLY ? [] : walksToTime) {
      log(`  cursor walk, ${name}`);
      const result = await app.step(`cursor walk, ${name}`, (server) => walk(server, token, first, key, order));
      const pageCheck = (page: SearchPage) =>
        page.data.length === LIMIT && sortedBy(page.data, key, order) ? null : "a short or unsorted page";
      const pageOne = fixedBodies(`${name}: page 1`, [JSON.stringify({ ...first, limit: LIMIT })], pageCheck);
      figures.push(await app.step(pageOne.name, (server) => measure(server, token, database, pageOne)));
      const deep = fixedBodies(`${name}: pages ${WALK_PAGES - DEEP_PAGES + 1}-${WALK_PAGES}`, result.deepBodies, pageCheck);
      figures.push(await app.step(deep.name, (server) => measure(server, token, database, deep)));
      walks.push(
        `| ${database} | ${name} | ${WALK_PAGES} | ${result.credentials} | ${result.seconds.toFixed(1)} | ${result.p50.toFixed(1)} | ${result.p95.toFixed(1)} |`,
      );
    }
  } finally {
    await app.stop();
  }
  return { database, seed, figures, walks, repeated: app.repeated };
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
}

async function main() {
  const results: Awaited<ReturnType<typeof benchDatabase>>[] = [];
  const reuse = REUSE_DIR ? await reusableDatabases(REUSE_DIR, ROWS, process.env.BENCH_POSTGRES_URL) : null;
  if (process.env.BENCH_SEARCH_SQLITE !== "0") {
    const dir = reuse ? null : mkdtempSync(path.join(tmpdir(), "cis-bench-search-"));
    const url = reuse ? reuse.sqliteUrl : `file:${path.join(dir!, "search.db")}`;
    try {
      results.push(await benchDatabase("SQLite", url));
    } finally {
      if (KEEP || reuse) log(`\nkept: DATABASE_URL=${url}`);
      else rmSync(dir!, { recursive: true, force: true });
    }
  }
  if (reuse?.postgresUrl) {
    results.push(await benchDatabase("PostgreSQL", reuse.postgresUrl));
    log(`\nkept: DATABASE_URL=${reuse.postgresUrl}`);
  } else if (process.env.BENCH_POSTGRES_URL) {
    const scratch = await createScratchDatabase(process.env.BENCH_POSTGRES_URL, "cis_bench_search");
    try {
      results.push(await benchDatabase("PostgreSQL", scratch.url));
    } finally {
      if (KEEP) log(`\nkept: DATABASE_URL=${scratch.url}`);
      else await scratch.drop();
    }
  } else {
    log(
      "\n(set BENCH_POSTGRES_URL=postgresql://user@host:port/postgres, a server the bench may create a scratch database on, to measure PostgreSQL too)",
    );
  }

  if (!results.length) return;
  const first = results[0]!.seed.dataset.counts;
  console.log(
    `\nPOST /v1/credentials/search, limit ${LIMIT}: ${first.credentials.toLocaleString("en")} credentials of one organization ` +
      `(${first.recipients.toLocaleString("en")} recipients, ${first.groups} groups), ${first.organizations} organizations, ` +
      `${REQUESTS} sequential requests after ${WARM_UP} to warm up, then ${REQUESTS} at ${CONCURRENCY} connections; ` +
      `node ${process.version}, ${cpus().length} CPUs (load avg: the machine's 1-minute load before and after the sequential requests)\n`,
  );
  console.log("| database | rows seeded | seconds | rows/s |");
  console.log("|---|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${r.database} | ${r.seed.dataset.counts.totalRows.toLocaleString("en")} | ${r.seed.seconds.toFixed(1)} | ${r.seed.rowsPerSecond.toFixed(0)} |`,
    );
  }
  console.log("");
  console.log(
    `| database | query | p50 ms | p95 ms | req/s | req/s (${CONCURRENCY} conn) | p95 ms (${CONCURRENCY} conn) | matches on page | target | met | load avg |`,
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|");
  const problems: string[] = [];
  for (const r of results) {
    for (const f of r.figures) {
      const target = f.indexed ? `p95 ≤ ${TARGET_P95_MS} ms` : "none (no index)";
      const met = !f.indexed ? "-" : f.p95 <= TARGET_P95_MS ? "met" : "**not met**";
      console.log(
        `| ${f.database} | ${f.query} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${f.rps.toFixed(0)} | ${f.concurrentRps.toFixed(0)} | ${fmt(f.concurrentP95)} | ${f.matches} | ${target} | ${met} | ${f.load.map((l) => l.toFixed(1)).join("-")} |`,
      );
      if (f.wrong.length)
        problems.push(`${f.database}, ${f.query}: ${f.wrong.length} wrong answers, e.g. ${[...new Set(f.wrong)].slice(0, 3).join("; ")}`);
    }
  }
  console.log(`\n| database | cursor walk | pages | distinct credentials | seconds | p50 ms | p95 ms |`);
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const r of results) for (const line of r.walks) console.log(line);
  for (const r of results) {
    if (r.repeated.length)
      console.log(`\n${r.database}: the server died (killed from outside) and was started again; repeated: ${r.repeated.join(", ")}`);
  }
  if (problems.length) {
    console.log(`\nWRONG ANSWERS (the figures above are not to be trusted for these):\n${problems.map((p) => `- ${p}`).join("\n")}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
