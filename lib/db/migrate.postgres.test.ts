// Migrations on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts one).
import pg from "pg";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "./migrate";
import { createScratchDatabase } from "../../test/support/db/postgres-scratch";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("migrations on PostgreSQL", () => {
  it("refuse a database that is not UTF-8, with a clear message, and leave it as it was", async () => {
    const scratch = await createScratchDatabase(serverUrl!, "cis_unit_sql_ascii", "SQL_ASCII");
    try {
      await expect(applyMigrations(scratch.url)).rejects.toThrow(/database encoding is SQL_ASCII, and this service needs UTF8/);
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        // All pending migrations run in one transaction: not even the first one's tables remain.
        const tables = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_cis_migrations'`);
        expect(tables.rows).toEqual([]);
        const applied = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = '_cis_migrations'`);
        if (applied.rows[0].n) expect((await client.query(`SELECT count(*)::int AS n FROM "_cis_migrations"`)).rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await scratch.drop();
    }
  });
});
