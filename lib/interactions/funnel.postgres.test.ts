// The issuing funnel's counting rules on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI
// starts one), on a scratch database of its own.
import { afterAll, beforeAll, describe } from "vitest";
import { funnelContract } from "../../test/support/funnel.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("on PostgreSQL", () => {
  let finish: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_funnel")).finish;
  });
  afterAll(() => finish());
  if (serverUrl) funnelContract();
});
