// Expiry reminders and expired notices on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI
// starts one), on a scratch database of its own. The claimers that run at once each use connections
// of the shared pool, as two processes would: a notice is still emailed and announced exactly once.
import { afterAll, beforeAll, describe } from "vitest";
import { expiryNoticesContract } from "../../test/support/expiry-notices.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("on PostgreSQL", () => {
  let finish: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_expiry_notices")).finish;
  });
  afterAll(() => finish());
  if (serverUrl) expiryNoticesContract();
});
