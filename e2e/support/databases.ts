// Throw-away databases for test servers: a SQLite file in a temp directory, or a fresh database on the
// PostgreSQL server named by TEST_POSTGRES_URL (which must let us create and drop databases).
import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

export type Backend = "sqlite" | "postgres";

export function postgresServerUrl(): string | undefined {
  const url = process.env.TEST_POSTGRES_URL?.trim();
  return url ? url : undefined;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A new, empty database URL; `dir` holds SQLite files. */
export async function createDatabase(backend: Backend, dir: string, label: string): Promise<string> {
  const suffix = `${label}_${randomBytes(4).toString("hex")}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  if (backend === "sqlite") return `file:${path.join(dir, `${suffix}.db`)}`;
  const serverUrl = postgresServerUrl();
  if (!serverUrl) throw new Error("TEST_POSTGRES_URL is not set");
  const name = `cis_e2e_${suffix}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return withDatabase(serverUrl, name);
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith("file:")) return; // the temp directory goes as a whole
  const serverUrl = postgresServerUrl();
  if (!serverUrl) return;
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
  } finally {
    await client.end();
  }
}

/** Runs SQL directly against a test database (to simulate damage the API cannot cause). */
export async function execSql(databaseUrl: string, sql: string): Promise<void> {
  if (databaseUrl.startsWith("file:")) {
    const conn = new Database(databaseUrl.slice("file:".length));
    try {
      conn.pragma("busy_timeout = 10000");
      conn.exec(sql);
    } finally {
      conn.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Rows of a query run directly against a test database (to check what the API does not show). */
export async function queryRows(databaseUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  if (databaseUrl.startsWith("file:")) {
    const conn = new Database(databaseUrl.slice("file:".length), { readonly: true });
    try {
      return conn.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
