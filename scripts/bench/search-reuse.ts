// Seed once, measure many times (npm run bench:search with BENCH_SEARCH_REUSE=DIR).
//
// Seeding a million credentials takes minutes on a shared machine, and a profiling session wants to
// measure the same table again after each change. With BENCH_SEARCH_REUSE the databases have fixed
// places (a SQLite file in DIR, a PostgreSQL database with a fixed name next to BENCH_POSTGRES_URL's)
// and the dataset's description (token, ids, emails to look up) is kept in a table of the database
// itself, so the database and its description cannot drift apart. A database without that row is
// seeded (again) from empty.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { sqlitePath } from "@/lib/db/migrate";
import type { SeedResult } from "./search-dataset";

const TABLE = `"BenchSearchDataset"`;

export type ReusableDatabases = { sqliteUrl: string; postgresUrl: string | null };

/** The fixed places for `rows` credentials; creates the PostgreSQL database when it does not exist. */
export async function reusableDatabases(dir: string, rows: number, postgresServerUrl: string | undefined): Promise<ReusableDatabases> {
  mkdirSync(dir, { recursive: true });
  const sqliteUrl = `file:${path.resolve(dir, `search-${rows}.db`)}`;
  if (!postgresServerUrl) return { sqliteUrl, postgresUrl: null };
  const name = `cis_bench_search_${rows}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return { sqliteUrl, postgresUrl: url.toString() };
}

/** The seed kept by keepDataset, or null when the database has none (it is then empty or half seeded). */
export async function loadKeptDataset(databaseUrl: string): Promise<SeedResult | null> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(sqlitePath(databaseUrl));
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'BenchSearchDataset'").get();
      if (!table) return null;
      const row = db.prepare(`SELECT "json" FROM ${TABLE}`).get() as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as SeedResult) : null;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query<{ t: string | null }>("SELECT to_regclass('public.\"BenchSearchDataset\"') AS t");
    if (!table.rows[0]?.t) return null;
    const row = await client.query<{ json: string }>(`SELECT "json" FROM ${TABLE}`);
    return row.rowCount ? (JSON.parse(row.rows[0]!.json) as SeedResult) : null;
  } finally {
    await client.end();
  }
}

/** Records a finished seed in the database it was written to. */
export async function keepDataset(databaseUrl: string, seed: SeedResult): Promise<void> {
  const json = JSON.stringify(seed);
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(sqlitePath(databaseUrl));
    try {
      db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} ("json" TEXT NOT NULL)`);
      db.prepare(`INSERT INTO ${TABLE} ("json") VALUES (?)`).run(json);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} ("json" TEXT NOT NULL)`);
    await client.query(`INSERT INTO ${TABLE} ("json") VALUES ($1)`, [json]);
  } finally {
    await client.end();
  }
}

const TRIGRAM_INDEXES = [
  ["Recipient_nameNormalized_trgm_idx", "nameNormalized"],
  ["Recipient_emailNormalized_trgm_idx", "emailNormalized"],
] as const;

/**
 * Runs `work` on a PostgreSQL database as a server without pg_trgm would have it (the migration then
 * creates no trigram indexes): the indexes are dropped first and built again afterwards.
 */
export async function withoutTrigramIndexes<T>(databaseUrl: string, log: (line: string) => void, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [index] of TRIGRAM_INDEXES) await client.query(`DROP INDEX IF EXISTS "${index}"`);
    await client.query(`ANALYZE "Recipient"`);
    log("  trigram indexes dropped for this run (the fallback without pg_trgm)");
    return await work();
  } finally {
    const started = performance.now();
    for (const [index, column] of TRIGRAM_INDEXES) {
      await client.query(`CREATE INDEX IF NOT EXISTS "${index}" ON "Recipient" USING gin ("${column}" gin_trgm_ops)`);
    }
    await client.query(`ANALYZE "Recipient"`);
    log(`  trigram indexes built again in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await client.end();
  }
}

/** Deletes a kept database's contents (a SQLite file, or a PostgreSQL database dropped and created again). */
export async function emptyDatabase(databaseUrl: string, postgresServerUrl: string | undefined): Promise<void> {
  if (databaseUrl.startsWith("file:")) {
    const file = sqlitePath(databaseUrl);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    return;
  }
  if (!postgresServerUrl) throw new Error("emptying a PostgreSQL database needs BENCH_POSTGRES_URL");
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}
