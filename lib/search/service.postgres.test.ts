// Search paths on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts one), on a scratch
// database of its own. The cases are in service.contract.ts, shared with SQLite.
import { afterAll, beforeAll, describe } from "vitest";
import { makeSearchPathsSubject, searchPathsContract, type SearchPathsSubject } from "./service.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("recipient substring searches on PostgreSQL", () => {
  let subject: SearchPathsSubject;
  let drop: () => Promise<void> = async () => undefined;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { scratchPostgresDatabase } = await import("../db/scratch-database");
    drop = (await scratchPostgresDatabase(serverUrl!, "cis_unit_search_paths")).drop;
    subject = await makeSearchPathsSubject();
    const { db, postgresPool } = await import("../db");
    close = async () => {
      await db().$disconnect();
      await postgresPool().end();
    };
  });

  afterAll(async () => {
    await close();
    await drop();
  });

  searchPathsContract(() => subject);
});
