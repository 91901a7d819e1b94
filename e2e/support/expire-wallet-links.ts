// Moves every wallet sign-in link of one email into the past, as 15 minutes would: for the spec of an
// expired link, which cannot wait that long.
//   tsx --tsconfig tsconfig.json e2e/support/expire-wallet-links.ts <email>
// DATABASE_URL / DATA_DIR as for the CLI. Prints {"expired": n} as the last line of stdout.
import { db } from "@/lib/db";

async function main() {
  const [email] = process.argv.slice(2);
  if (!email) throw new Error("usage: expire-wallet-links.ts <email>");
  const { count } = await db().walletSignInLink.updateMany({
    where: { email: email.toLowerCase() },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  console.log(JSON.stringify({ expired: count }));
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
