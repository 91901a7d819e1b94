// Sweeping spent OpenID4VCI rows on SQLite; the PostgreSQL run is retention.postgres.test.ts.
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { oid4vciRetentionContract } from "../../test/support/oid4vci-retention.contract";

await scratchDatabase("oid4vci-retention");
oid4vciRetentionContract();
