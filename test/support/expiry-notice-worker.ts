// One "process" of the expiry notice worker for the two-process test on PostgreSQL
// (lib/credentials/expiry-notices.postgres.test.ts): drains due notices from DATABASE_URL as the
// background loop does, prints how many it claimed, and exits.
import { processDueExpiryNotices } from "../../lib/credentials/expiry-notices";
import { db, postgresPool } from "../../lib/db";

let claimed = 0;
for (;;) {
  // Small rounds, so that the two processes interleave rather than one taking everything at once.
  const n = await processDueExpiryNotices(new Date(), 3);
  claimed += n;
  if (n === 0) break;
}
console.log(JSON.stringify({ claimed }));
await db().$disconnect();
await postgresPool().end();
