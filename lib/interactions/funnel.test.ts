// The issuing funnel's counting rules on SQLite (test/support/funnel.contract.ts; PostgreSQL runs the
// same in funnel.postgres.test.ts).
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { funnelContract } from "../../test/support/funnel.contract";

await scratchDatabase("funnel");

funnelContract();
