// Organizations and their API tokens: the rules shared by the CLI, the /v1 wrapper and the dashboard.
import { singleLineText } from "../core/text";
import { invalidField, notFound } from "../core/errors";
import { config } from "../config";
import { monthOf } from "../core/dates";
import { AssetError, decodeImage } from "../designs/assets";
import { db, postgresPool, type DbOrTx } from "../db";
import { directRows } from "../db/direct-read";
import { newId } from "../db/ids";
import { generateApiToken, hashApiToken, TOKEN_PATTERN } from "./api-tokens";
import { processSlot } from "../core/process-singleton";
import { CallerCache } from "./caller-cache";
import type { Plan } from "./schema";

export class OrganizationError extends Error {}

export type OrganizationRow = { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };

export async function createOrganization(input: { slug: string; name?: string; plan?: Plan }, client: DbOrTx = db()) {
  const existing = await client.organization.findUnique({ where: { slug: input.slug } });
  if (existing) throw new OrganizationError(`An organization with slug "${input.slug}" already exists.`);
  return client.organization.create({
    data: { id: newId("org"), slug: input.slug, name: input.name ?? input.slug, plan: input.plan ?? "free" },
  });
}

export async function findOrganizationBySlug(slug: string) {
  return db().organization.findUnique({ where: { slug } });
}

export type CreatedApiToken = { token: string; id: string; prefix: string; name: string; createdAt: Date };

export async function createApiToken(
  organizationId: string,
  name: string,
  createdByUserId: string | null = null,
  client: DbOrTx = db(),
): Promise<CreatedApiToken> {
  const { token, prefix, tokenHash } = generateApiToken();
  const row = await client.apiToken.create({
    data: { id: newId("tok"), organizationId, name, prefix, tokenHash, createdByUserId },
  });
  return { token, id: row.id, prefix: row.prefix, name: row.name, createdAt: row.createdAt };
}

export async function listApiTokens(organizationId: string) {
  return db().apiToken.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Revokes the token with this prefix (optionally only within one organization). Returns whether one was revoked now. */
export async function revokeApiToken(prefix: string, organizationId?: string): Promise<"revoked" | "already_revoked" | "not_found"> {
  const token = await db().apiToken.findUnique({ where: { prefix } });
  if (!token || (organizationId && token.organizationId !== organizationId)) return "not_found";
  if (token.revokedAt) return "already_revoked";
  const { count } = await db().apiToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: new Date() } });
  // The database tells every process, this one too; forgetting here as well makes this process's next
  // request refuse the token without waiting for the notice.
  forgetKeptCallers();
  return count === 1 ? "revoked" : "already_revoked";
}

export type Caller = { tokenId: string; organization: OrganizationRow };

// lastUsedAt is a hint for people looking at their token list, not an audit log: writing it on every
// request would turn each read into a write, so it is refreshed at most once a minute per token.
const LAST_USED_RESOLUTION_MS = 60_000;

type TokenLookupRow = {
  tokenId: string;
  revokedAt: Date | string | null;
  lastUsedAt: Date | string | null;
  id: string;
  slug: string;
  name: string;
  plan: string;
  monthlyIssueQuota: number | bigint | string | null;
};

/** The caller behind a bearer token, or null when it is malformed, unknown or revoked. */
export async function authenticateApiToken(token: string): Promise<Caller | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const tokenHash = hashApiToken(token);
  const cache = callerCache();
  const kept = cache?.get(tokenHash);
  if (kept) {
    noteTokenUse(kept.caller.tokenId, kept);
    return kept.caller;
  }
  const mark = cache?.mark();
  // Every /v1 request the cache does not answer runs this, so it is one hand-written join rather than
  // a Prisma relation query (measured: about a third of the cost), read past the Prisma client
  // (lib/db/direct-read.ts: 330–500 µs of CPU through $queryRaw, 8–14 µs prepared on the driver).
  const rows = await directRows<TokenLookupRow>`
    SELECT t."id" AS "tokenId", t."revokedAt", t."lastUsedAt",
           o."id", o."slug", o."name", o."plan", o."monthlyIssueQuota"
    FROM "ApiToken" t JOIN "Organization" o ON o."id" = t."organizationId"
    WHERE t."tokenHash" = ${tokenHash}`;
  const row = rows[0];
  if (!row || row.revokedAt !== null) return null;
  // Frozen: the cache hands this one object to every request of the token.
  const caller: Caller = Object.freeze({
    tokenId: row.tokenId,
    organization: Object.freeze({
      id: row.id,
      slug: row.slug,
      name: row.name,
      plan: row.plan,
      monthlyIssueQuota: row.monthlyIssueQuota === null ? null : Number(row.monthlyIssueQuota),
    }),
  });
  const use = { lastUsedAt: row.lastUsedAt === null ? 0 : new Date(row.lastUsedAt).getTime() };
  noteTokenUse(caller.tokenId, use);
  if (cache && mark !== undefined) cache.keep(tokenHash, { caller, lastUsedAt: use.lastUsedAt }, mark);
  return caller;
}

/** Records when a token was last used (shown in token lists), at most once per LAST_USED_RESOLUTION_MS. */
function noteTokenUse(tokenId: string, use: { lastUsedAt: number }): void {
  const now = Date.now();
  if (now - use.lastUsedAt <= LAST_USED_RESOLUTION_MS) return;
  use.lastUsedAt = now;
  // Not awaited on purpose: a failed hint must not fail the request.
  db()
    .apiToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
}

/** The process's caller cache, made on its first API request: PostgreSQL only (caller-cache.ts says why). */
function callerCache(): CallerCache<Caller> | null {
  const slot = callerCacheSlot();
  if (slot.current === undefined) {
    const { databaseUrl } = config();
    slot.current = databaseUrl.startsWith("file:")
      ? null
      : new CallerCache<Caller>(databaseUrl, async (channel, payload) => {
          await postgresPool().query("SELECT pg_notify($1, $2)", [channel, payload]);
        });
  }
  return slot.current;
}

const callerCacheSlot = () => processSlot<CallerCache<Caller> | null>("organizations.callerCache");

/**
 * After this process changed what a caller carries: forgets at once rather than on the database's
 * notice. Makes no cache where none is (the CLI, which never authenticates a token).
 */
function forgetKeptCallers(): void {
  callerCacheSlot().current?.forget();
}

export const organizationName = singleLineText({ trim: true }).min(1, "must not be empty").max(100, "must be at most 100 characters");

export async function renameOrganization(organizationId: string, name: string): Promise<void> {
  const parsed = organizationName.safeParse(name);
  if (!parsed.success) throw invalidField("name", parsed.error.issues[0]!.message);
  await db().organization.update({ where: { id: organizationId }, data: { name: parsed.data } });
  forgetKeptCallers(); // as in revokeApiToken
}

/** Sets the logo shown on the wallet page: PNG or JPEG, within the design asset limits. */
export async function setOrganizationLogo(
  organizationId: string,
  bytes: Buffer,
): Promise<{ mimeType: string; width: number; height: number }> {
  let logo;
  try {
    logo = await decodeImage(bytes);
  } catch (error) {
    if (!(error instanceof AssetError)) throw error;
    throw invalidField("logo", error.message);
  }
  await db().organization.update({
    where: { id: organizationId },
    data: { logoData: new Uint8Array(logo.data), logoMimeType: logo.mimeType },
  });
  return { mimeType: logo.mimeType, width: logo.width, height: logo.height };
}

export async function removeOrganizationLogo(organizationId: string): Promise<void> {
  await db().organization.update({ where: { id: organizationId }, data: { logoData: null, logoMimeType: null } });
}

export type OrganizationUsage = { plan: string; month: string; issued: number; quota: number | null };

/** This calendar month's issued credentials against the plan's quota (null: no quota). */
export async function organizationUsage(organization: OrganizationRow, now = new Date()): Promise<OrganizationUsage> {
  const month = monthOf(now);
  const usage = await db().monthlyUsage.findUnique({ where: { organizationId_month: { organizationId: organization.id, month } } });
  const quota = organization.plan === "free" ? (organization.monthlyIssueQuota ?? config().freePlanMonthlyIssues) : null;
  return { plan: organization.plan, month, issued: usage?.issued ?? 0, quota };
}

/** How much an organization has, for the dashboard's overview. */
export async function organizationTotals(
  organizationId: string,
): Promise<{ credentials: number; groups: number; designs: number; activeTokens: number }> {
  const where = { organizationId };
  const [credentials, groups, designs, activeTokens] = await Promise.all([
    db().credential.count({ where }),
    db().group.count({ where }),
    db().design.count({ where }),
    db().apiToken.count({ where: { organizationId, revokedAt: null } }),
  ]);
  return { credentials, groups, designs, activeTokens };
}

/** The logo's bytes for its public URL; not_found when the organization has none (or does not exist). */
export async function organizationLogo(organizationId: string): Promise<{ data: Uint8Array; mimeType: string }> {
  const org = await db().organization.findUnique({ where: { id: organizationId }, select: { logoData: true, logoMimeType: true } });
  if (!org?.logoData || !org.logoMimeType) throw notFound("Logo");
  return { data: org.logoData, mimeType: org.logoMimeType };
}

/** Whether the organization has a logo, and a version for cache-busting its URL. */
export async function organizationLogoVersion(organizationId: string): Promise<string | null> {
  const org = await db().organization.findUnique({ where: { id: organizationId }, select: { logoMimeType: true, updatedAt: true } });
  return org?.logoMimeType ? String(org.updatedAt.getTime()) : null;
}
