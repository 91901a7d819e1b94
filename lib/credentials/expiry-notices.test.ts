// Expiry reminders and expired notices on SQLite; the same tests run on PostgreSQL in
// expiry-notices.postgres.test.ts (test/support/expiry-notices.contract.ts).
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { expiryNoticesContract } from "../../test/support/expiry-notices.contract";

await scratchDatabase("expiry-notices");

expiryNoticesContract();
