// Applies the SQL migrations in prisma/migrations (SQLite) or prisma/postgres/migrations (PostgreSQL)
// on start. The SQL is written by `prisma migrate diff` (scripts/db-new-migration.mjs); it is applied
// here with the plain drivers because Prisma 6's WebAssembly schema engine cannot run migrations
// through the PostgreSQL adapter (prisma/prisma#27403). All pending migrations apply in one
// transaction, under a lock, so two starting processes cannot both apply one.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

export type Migration = { name: string; sql: string; checksum: string };

const TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_cis_migrations" (
  "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`;

export function migrationsDir(databaseUrl: string, root = process.cwd()): string {
  return databaseUrl.startsWith("file:") ? path.join(root, "prisma/migrations") : path.join(root, "prisma/postgres/migrations");
}

export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

function pending(all: Migration[], applied: Map<string, string>): Migration[] {
  for (const [name, checksum] of applied) {
    const m = all.find((x) => x.name === name);
    if (m && m.checksum !== checksum) {
      throw new Error(`Migration ${name} was changed after it was applied; write a new migration instead.`);
    }
  }
  return all.filter((m) => !applied.has(m.name));
}

export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.replace(/^file:/, "").replace(/\?.*$/, "");
}

function applySqlite(databaseUrl: string, migrations: Migration[]): string[] {
  const file = sqlitePath(databaseUrl);
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const conn = new Database(file);
  try {
    conn.pragma("journal_mode = WAL");
    conn.pragma("busy_timeout = 10000");
    conn.exec(TABLE_SQL);
    conn.exec("BEGIN IMMEDIATE");
    try {
      const rows = conn.prepare(`SELECT "name", "checksum" FROM "_cis_migrations"`).all() as { name: string; checksum: string }[];
      const todo = pending(migrations, new Map(rows.map((r) => [r.name, r.checksum])));
      const record = conn.prepare(`INSERT INTO "_cis_migrations" ("name", "checksum", "appliedAt") VALUES (?, ?, ?)`);
      for (const m of todo) {
        conn.exec(m.sql);
        record.run(m.name, m.checksum, new Date().toISOString());
      }
      conn.exec("COMMIT");
      return todo.map((m) => m.name);
    } catch (error) {
      conn.exec("ROLLBACK");
      throw error;
    }
  } finally {
    conn.close();
  }
}

// Any constant works; it only has to be the same in every process of this service.
const PG_MIGRATION_LOCK = 72_027_110;

async function applyPostgres(databaseUrl: string, migrations: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [PG_MIGRATION_LOCK]);
      await client.query(TABLE_SQL);
      const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "_cis_migrations"`);
      const todo = pending(migrations, new Map(rows.map((r) => [r.name, r.checksum])));
      for (const m of todo) {
        await client.query(m.sql);
        await client.query(`INSERT INTO "_cis_migrations" ("name", "checksum", "appliedAt") VALUES ($1, $2, $3)`, [
          m.name,
          m.checksum,
          new Date().toISOString(),
        ]);
      }
      await client.query("COMMIT");
      return todo.map((m) => m.name);
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    await client.end();
  }
}

/** Applies every pending migration; returns the names applied now. */
export async function applyMigrations(databaseUrl: string, root = process.cwd()): Promise<string[]> {
  const migrations = readMigrations(migrationsDir(databaseUrl, root));
  return databaseUrl.startsWith("file:") ? applySqlite(databaseUrl, migrations) : applyPostgres(databaseUrl, migrations);
}
