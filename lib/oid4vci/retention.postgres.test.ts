// Sweeping spent OpenID4VCI rows on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts
// one), on a scratch database of its own.
import { afterAll, beforeAll, describe } from "vitest";
import { oid4vciRetentionContract } from "../../test/support/oid4vci-retention.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("on PostgreSQL", () => {
  let finish: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_oid4vci_retention")).finish;
  });
  afterAll(() => finish());
  if (serverUrl) oid4vciRetentionContract();
});
