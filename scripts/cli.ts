// Operator command line: organizations and API tokens.
//   npm run cli -- org create <slug> [--plan free|premium] [--name NAME]
//   npm run cli -- org rotate-key <slug>                     (prints the new key's verification method id)
//   npm run cli -- org branding <slug> [--sender-name N] [--contact-email E] [--brand-color #rrggbb] [--linkedin-id ID]
//   npm run cli -- token create <org-slug> [--name NAME]     (prints the token alone on its last line)
//   npm run cli -- token list <org-slug>
//   npm run cli -- token revoke <token-prefix>
//   npm run cli -- verify <file.json|file.png|file.pdf|url>            (exit 0 valid, 1 not valid, 2 could not be verified)
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ApiError } from "@/lib/core/errors";
import { config } from "@/lib/config";
import { applyMigrations } from "@/lib/db/migrate";
import { db } from "@/lib/db";
import { organizationSlug, PLANS, tokenName, type Plan } from "@/lib/organizations/schema";
import { rotateIssuerKey } from "@/lib/issuers/service";
import { runVerify, verificationInputFromArgument } from "./cli-verify";
import { organizationBranding, updateOrganizationBranding } from "@/lib/organizations/branding";
import { addStarterDesigns } from "@/lib/designs/starter";
import { SEED_DESIGNS } from "@/lib/designs/seed-documents";
import {
  createApiToken,
  createOrganization,
  findOrganizationBySlug,
  listApiTokens,
  OrganizationError,
  revokeApiToken,
  setOrganizationLogo,
} from "@/lib/organizations/service";

const USAGE = `Usage:
  npm run cli -- org create <slug> [--plan free|premium] [--name NAME]
  npm run cli -- org logo <slug> <png-or-jpeg-file>
  npm run cli -- org rotate-key <slug>
  npm run cli -- org branding <slug> [--sender-name NAME] [--contact-email EMAIL] [--brand-color #rrggbb] [--linkedin-id ID]
      (the settings page's "Email and LinkedIn"; an empty value clears one, one left out stays)
  npm run cli -- token create <org-slug> [--name NAME]
  npm run cli -- token list <org-slug>
  npm run cli -- token revoke <token-prefix>
  npm run cli -- verify <file.json|file.png|file.pdf|url>`;

class UsageError extends Error {}

function parseSlug(value: string | undefined): string {
  const parsed = organizationSlug.safeParse(value ?? "");
  if (!parsed.success) throw new UsageError(`Organization slug ${parsed.error.issues[0]!.message}.`);
  return parsed.data;
}

async function organizationOrFail(slug: string) {
  const org = await findOrganizationBySlug(slug);
  if (!org) throw new UsageError(`No organization with slug "${slug}". Create it with: npm run cli -- org create ${slug}`);
  return org;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      plan: { type: "string" },
      name: { type: "string" },
      "sender-name": { type: "string" },
      "contact-email": { type: "string" },
      "brand-color": { type: "string" },
      "linkedin-id": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [resource, action, arg] = positionals;
  if (values.help || !resource) {
    console.log(USAGE);
    return;
  }
  await applyMigrations(config().databaseUrl);

  if (resource === "org" && action === "create") {
    const slug = parseSlug(arg);
    const plan = (values.plan ?? "free") as Plan;
    if (!PLANS.includes(plan)) throw new UsageError(`--plan must be one of: ${PLANS.join(", ")}.`);
    const org = await createOrganization({ slug, plan, name: values.name });
    // The same starter designs a sign-up gets.
    await addStarterDesigns(org);
    console.log(`Created organization ${org.slug} (${org.id}), plan ${org.plan}, with ${SEED_DESIGNS.length} starter designs.`);
    return;
  }
  if (resource === "org" && action === "logo") {
    const org = await organizationOrFail(parseSlug(arg));
    const file = positionals[3];
    if (!file) throw new UsageError("Give the logo file: npm run cli -- org logo <slug> <file.png>");
    let logo;
    try {
      logo = await setOrganizationLogo(org.id, readFileSync(file));
    } catch (error) {
      throw new UsageError(`The logo ${error instanceof ApiError ? error.details?.[0]?.message : "could not be read"}.`);
    }
    console.log(`Set the logo of ${org.slug} (${logo.mimeType}, ${logo.width}x${logo.height}).`);
    return;
  }
  if (resource === "org" && action === "branding") {
    const org = await organizationOrFail(parseSlug(arg));
    const given = {
      senderName: values["sender-name"],
      contactEmail: values["contact-email"],
      brandColor: values["brand-color"],
      linkedinOrganizationId: values["linkedin-id"],
    };
    const flags: Record<string, string> = {
      senderName: "--sender-name",
      contactEmail: "--contact-email",
      brandColor: "--brand-color",
      linkedinOrganizationId: "--linkedin-id",
    };
    try {
      await updateOrganizationBranding(org.id, Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new UsageError((error.details ?? []).map((d) => `${flags[d.path] ?? d.path} ${d.message}.`).join("\n"));
    }
    console.log(JSON.stringify(await organizationBranding(org.id)));
    return;
  }
  if (resource === "org" && action === "rotate-key") {
    const org = await organizationOrFail(parseSlug(arg));
    const key = await rotateIssuerKey(org);
    console.error(`New current signing key for ${org.slug}; earlier keys stay in its DID document.`);
    console.log(key.verificationMethod);
    return;
  }
  if (resource === "verify") {
    if (!action) throw new UsageError("Give a credential: npm run cli -- verify <file.json|file.png|file.pdf|url>");
    let input;
    try {
      input = verificationInputFromArgument(action);
    } catch (error) {
      throw new UsageError(`Cannot read ${action}: ${error instanceof Error ? error.message.replace(/^\w+: /, "") : String(error)}`);
    }
    process.exitCode = await runVerify(input);
    return;
  }
  if (resource === "token" && action === "create") {
    const org = await organizationOrFail(parseSlug(arg));
    const name = tokenName.safeParse(values.name ?? "cli");
    if (!name.success) throw new UsageError(`--name ${name.error.issues[0]!.message}.`);
    const created = await createApiToken(org.id, name.data);
    console.error(`Created token ${created.prefix}… "${created.name}" for ${org.slug}. It is shown once; store it now.`);
    console.log(created.token);
    return;
  }
  if (resource === "token" && action === "list") {
    const org = await organizationOrFail(parseSlug(arg));
    const tokens = await listApiTokens(org.id);
    if (tokens.length === 0) console.log(`No tokens for ${org.slug}.`);
    for (const t of tokens) {
      const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : "active";
      const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : "never used";
      console.log(`${t.prefix}\t${t.name}\tcreated ${t.createdAt.toISOString()}\t${used}\t${state}`);
    }
    return;
  }
  if (resource === "token" && action === "revoke") {
    if (!arg) throw new UsageError("Give the token's prefix (see: npm run cli -- token list <org-slug>).");
    const outcome = await revokeApiToken(arg.slice(0, 12));
    if (outcome === "not_found") throw new UsageError(`No token with prefix "${arg}".`);
    console.log(outcome === "revoked" ? `Revoked ${arg.slice(0, 12)}.` : `${arg.slice(0, 12)} was already revoked.`);
    return;
  }
  throw new UsageError(USAGE);
}

main(process.argv.slice(2))
  .then(() => db().$disconnect())
  .catch(async (error: unknown) => {
    if (error instanceof UsageError || error instanceof OrganizationError) console.error(error.message);
    else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    await db()
      .$disconnect()
      .catch(() => undefined);
    process.exit(error instanceof UsageError || error instanceof OrganizationError ? 2 : 1);
  });
