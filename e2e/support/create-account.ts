// Creates one dashboard account (user, organization, owner membership) with a password, the same
// service call as the sign-up page, for API specs that sign in through next-auth without a browser.
//   tsx --tsconfig tsconfig.json e2e/support/create-account.ts <email> <password>
// Prints {"userId"} as the last line of stdout. DATABASE_URL / DATA_DIR as for the CLI.
import { randomUUID } from "node:crypto";
import { signUp } from "@/lib/accounts/service";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { applyMigrations } from "@/lib/db/migrate";

async function main() {
  const [email, password] = process.argv.slice(2);
  if (!email || !password) throw new Error("usage: create-account.ts <email> <password>");
  await applyMigrations(config().databaseUrl);
  const { userId } = await signUp(
    { name: "Ada Lovelace", email, password, organizationName: `Org ${randomUUID().slice(0, 8)}` },
    { clientAddress: `e2e-${randomUUID()}` },
  );
  console.log(JSON.stringify({ userId }));
}

main()
  .then(() => db().$disconnect())
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await db()
      .$disconnect()
      .catch(() => undefined);
    process.exit(1);
  });
