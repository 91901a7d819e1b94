// For unit tests that need a real database: a fresh, migrated SQLite file in a folder of its own,
// set in the environment before anything reads the configuration. Import the modules under test
// after awaiting it (dynamic `await import(...)`), so they see this database and not the default.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** A new empty folder under the system's temporary folder, removed after the test that made it (or, made outside a test, after the file's tests). */
export function scratchFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove); // not inside a test
  }
  return dir;
}

/** Creates and migrates the database; returns its folder (also DATA_DIR), removed after the file's tests. `env` adds settings. */
export async function scratchDatabase(prefix: string, env: Record<string, string> = {}): Promise<string> {
  const dir = scratchFolder(prefix);
  process.env.DATABASE_URL = `file:${dir}/db.sqlite`;
  process.env.DATA_DIR = dir;
  process.env.LOG_LEVEL = "silent";
  Object.assign(process.env, env);
  const { applyMigrations } = await import("../../../lib/db/migrate");
  await applyMigrations(process.env.DATABASE_URL);
  return dir;
}

/**
 * The same on PostgreSQL: a new database next to the one `serverUrl` names (TEST_POSTGRES_URL), migrated
 * and set as DATABASE_URL; returns its URL and how to drop it (after the caller has closed its connections).
 */
export async function scratchPostgresDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { createScratchDatabase } = await import("./postgres-scratch");
  const scratch = await createScratchDatabase(serverUrl, prefix);
  process.env.DATABASE_URL = scratch.url;
  process.env.LOG_LEVEL = "silent";
  const { applyMigrations } = await import("../../../lib/db/migrate");
  await applyMigrations(scratch.url);
  return { url: scratch.url, drop: scratch.drop };
}

/**
 * For a test file on PostgreSQL: scratchPostgresDatabase, and `finish` for its afterAll, which closes
 * this process's connections (the Prisma client and the shared pool) and drops the database.
 */
export async function postgresTestDatabase(serverUrl: string, prefix: string): Promise<{ url: string; finish: () => Promise<void> }> {
  const scratch = await scratchPostgresDatabase(serverUrl, prefix);
  return {
    url: scratch.url,
    finish: async () => {
      const { db, postgresPool } = await import("../../../lib/db");
      await db().$disconnect();
      await postgresPool().end();
      await scratch.drop();
    },
  };
}
