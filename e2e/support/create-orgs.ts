// Creates many organizations with one API token each, in one process: the same service calls
// `npm run cli -- org create` and `token create` make, without a ~1 s tsx start per organization.
//   tsx --tsconfig tsconfig.json e2e/support/create-orgs.ts <prefix> <free-count> <premium-count>
// Prints one JSON array of {slug, plan, token} as the last line of stdout. DATABASE_URL / DATA_DIR as
// for the CLI.
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { applyMigrations } from "@/lib/db/migrate";
import { createApiToken, createOrganization } from "@/lib/organizations/service";

async function main() {
  const [prefix, freeArg, premiumArg] = process.argv.slice(2);
  if (!prefix) throw new Error("usage: create-orgs.ts <prefix> <free-count> <premium-count>");
  await applyMigrations(config().databaseUrl);
  const wanted = [
    ...Array.from({ length: Number(freeArg ?? 0) }, () => "free" as const),
    ...Array.from({ length: Number(premiumArg ?? 0) }, () => "premium" as const),
  ];
  const created: { slug: string; plan: string; token: string }[] = [];
  let n = 0;
  for (const plan of wanted) {
    const slug = `${prefix}-${(n++).toString(36)}`;
    const org = await createOrganization({ slug, plan, name: `E2E ${slug}` });
    const token = await createApiToken(org.id, "e2e");
    created.push({ slug, plan, token: token.token });
  }
  console.log(JSON.stringify(created));
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
