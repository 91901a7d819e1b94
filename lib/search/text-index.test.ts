// The recipient text indexes on SQLite (the FTS5 tables and their triggers); the cases are in
// test/support/search/text-index.contract.ts, shared with PostgreSQL.
import { beforeAll, describe } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import type { Db } from "../db";
import { textIndexContract } from "../../test/support/search/text-index.contract";

describe("recipient text indexes on SQLite", () => {
  let subject: { db: Db; engine: "sqlite"; organizationId: string; otherOrganizationId: string };

  beforeAll(async () => {
    await scratchDatabase("cis-text-index");
    const { db } = await import("../db");
    const { createOrganization } = await import("../organizations/service");
    const organization = await createOrganization({ slug: "text-index" });
    const other = await createOrganization({ slug: "text-index-other" });
    subject = { db: db(), engine: "sqlite", organizationId: organization.id, otherOrganizationId: other.id };
  });

  textIndexContract(() => subject);
});
