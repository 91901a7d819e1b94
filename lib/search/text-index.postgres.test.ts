// The recipient text indexes on PostgreSQL (the GIN indexes on cis_text_grams): runs when
// TEST_POSTGRES_URL names a server (CI starts one), on a scratch database of its own. The cases are in
// test/support/search/text-index.contract.ts, shared with SQLite.
import { afterAll, beforeAll, describe } from "vitest";
import type { Db } from "../db";
import { textIndexContract } from "../../test/support/search/text-index.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("recipient text indexes on PostgreSQL", () => {
  let subject: { db: Db; engine: "postgresql"; organizationId: string; otherOrganizationId: string };
  let finish: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_text_index")).finish;
    const { db } = await import("../db");
    const { createOrganization } = await import("../organizations/service");
    const organization = await createOrganization({ slug: "text-index" });
    const other = await createOrganization({ slug: "text-index-other" });
    subject = { db: db(), engine: "postgresql", organizationId: organization.id, otherOrganizationId: other.id };
  });

  afterAll(() => finish());

  textIndexContract(() => subject);
});
