// Search paths on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts one), on a scratch
// database of its own. The cases are in test/support/search/service.contract.ts, shared with SQLite.
import { afterAll, beforeAll, describe } from "vitest";
import { makeSearchPathsSubject, searchPathsContract, type SearchPathsSubject } from "../../test/support/search/service.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("recipient substring searches on PostgreSQL", () => {
  let subject: SearchPathsSubject;
  let finish: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_search_paths")).finish;
    subject = await makeSearchPathsSubject();
  });

  afterAll(() => finish());

  searchPathsContract(() => subject);
});
