// Search paths on SQLite; the cases are in service.contract.ts, shared with PostgreSQL.
import { beforeAll, describe } from "vitest";
import { scratchDatabase } from "../db/scratch-database";
import { makeSearchPathsSubject, searchPathsContract, type SearchPathsSubject } from "./service.contract";

describe("recipient substring searches on SQLite", () => {
  let subject: SearchPathsSubject;

  beforeAll(async () => {
    await scratchDatabase("cis-search-paths");
    subject = await makeSearchPathsSubject();
  });

  searchPathsContract(() => subject);
});
