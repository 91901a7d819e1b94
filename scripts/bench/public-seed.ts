// For bench:public, run in a process of its own against the bench server's database (DATABASE_URL,
// DATA_DIR): a wallet session for EMAIL, a public profile HANDLE and a verified DOMAIN for the demo
// organization, written as the services write them. Prints the session's token.
import { db } from "../../lib/db";
import { startWalletSession } from "../../lib/wallet/session";
import { updateWalletProfile } from "../../lib/wallet-profiles/service";

const [email, handle, domain] = process.argv.slice(2) as [string, string, string];
const { token } = await startWalletSession(email);
await updateWalletProfile(email, { handle, displayName: "Bench Reader", public: true });
const org = await db().organization.findUniqueOrThrow({ where: { slug: "demo" }, select: { id: true } });
await db().domainClaim.upsert({
  where: { organizationId: org.id },
  create: { organizationId: org.id, domain, token: "bench", verifiedDomain: domain, verifiedAt: new Date() },
  update: { verifiedDomain: domain, verifiedAt: new Date() },
});
await db().$disconnect();
console.log(token);
