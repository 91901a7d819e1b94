// Search paths on SQLite; the cases are in test/support/search/service.contract.ts, shared with PostgreSQL.
import { beforeAll, describe } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { makeSearchPathsSubject, searchPathsContract, type SearchPathsSubject } from "../../test/support/search/service.contract";

describe("recipient substring searches on SQLite", () => {
  let subject: SearchPathsSubject;

  beforeAll(async () => {
    await scratchDatabase("cis-search-paths");
    subject = await makeSearchPathsSubject();
  });

  searchPathsContract(() => subject);
});
