// A scratch PostgreSQL database (benchmarks, unit tests on PostgreSQL): created next to the one `serverUrl`
// names (any database the user may connect to, e.g. postgresql://postgres@127.0.0.1:5432/postgres), dropped afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";

export type ScratchDatabase = { url: string; name: string; drop: () => Promise<void> };

/** `encoding` other than the server's default (a test of what a SQL_ASCII database gets) copies template0. */
export async function createScratchDatabase(serverUrl: string, prefix = "cis_bench", encoding?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(
    encoding ? `CREATE DATABASE "${name}" ENCODING '${encoding.replace(/'/g, "")}' TEMPLATE template0` : `CREATE DATABASE "${name}"`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
