// The versions of the public faces (a credential's wallet page and signed document, an organization's
// status lists, DID document, OpenID4VCI metadata, DID configuration and profile page, a recipient's
// public profile):
// each one indexed statement, the same SQL on both engines, read past the Prisma client (lib/db/direct-read.ts:
// it runs before every answer, and Prisma's pipeline was most of a cached answer's CPU), returning a text that changes whenever a
// row the answer is built from changes. lib/http-server/public-faces.ts keys its cache of rendered
// answers on them and reads them before every answer, so an edit, a revocation, a deletion or a
// privacy change made by any process is seen by the next request of every process.
//
// Every edit that changes what a face shows goes through the Prisma client, which stamps "updatedAt"
// (the few hand-written UPDATEs touch columns no face shows); the columns that decide 404 versus 200
// (status, visibility, revocation) are part of the version themselves rather than trusted to a stamp.
import { Prisma } from "../generated/sqlite/client";
import { todayUtc } from "../core/dates";
import { directQuery } from "../db/direct-read";
import { rawDate } from "../db/raw-values";
import { readStatus } from "../credentials/serialize";

/** Each version's statement has one text and runs before every cached answer: planned once per connection. */
const PREPARED = { prepared: true };

/** A timestamp (or null) as a short, stable text. */
const stamp = (value: unknown): string => (value === null || value === undefined ? "-" : String(rawDate(value).getTime()));
const text = (value: unknown): string => {
  if (value === null || value === undefined) return "-";
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  return JSON.stringify(value);
};
/** A text column that may be null. */
const optionalText = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The designs of a credential's group, as the previews on its page and in its document depend on them. */
const GROUP_DESIGNS = Prisma.sql`
  (SELECT MAX(d."updatedAt") FROM "GroupDesign" gd JOIN "Design" d ON d."id" = gd."designId" WHERE gd."groupId" = c."groupId") AS du,
  (SELECT COUNT(*) FROM "GroupDesign" gd WHERE gd."groupId" = c."groupId") AS dn`;

export type CredentialFaceVersion = {
  credentialId: string;
  /** `public`, or `private`: shown to its signed-in recipient only (everyone else gets the 404). */
  visibility: "public" | "private";
  /** The recipient's lower-cased email: who counts as the signed-in recipient. */
  recipientEmail: string | null;
  /** The language the credential's group fixes for its page, or null (the reader's). */
  language: string | null;
  version: string;
};

/**
 * The wallet page's version, or null where the page answers 404 to everyone (unknown, draft, scheduled,
 * deleted). Besides the credential's own document version: the issuer's verified domain (the trust
 * line), the credential's name correction requests (the recipient's view shows the last one), and
 * today's date (an expiry date passing turns the page to "expired" with no row changing).
 */
export async function walletPageVersion(publicId: string): Promise<CredentialFaceVersion | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT c."id", c."status", c."issueDate", c."expiryDate", c."visibility", c."revokedAt", c."revocationReason",
      c."updatedAt" AS cu, g."updatedAt" AS gu, g."language", o."updatedAt" AS ou, r."updatedAt" AS ru, r."emailNormalized",
      dc."verifiedDomain", dc."verifiedAt", ${GROUP_DESIGNS},
      (SELECT COUNT(*) FROM "CorrectionRequest" cr WHERE cr."credentialId" = c."id") AS qn,
      (SELECT MAX(cr."resolvedAt") FROM "CorrectionRequest" cr WHERE cr."credentialId" = c."id") AS qr
    FROM "Credential" c
    JOIN "Group" g ON g."id" = c."groupId"
    JOIN "Organization" o ON o."id" = c."organizationId"
    LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    LEFT JOIN "DomainClaim" dc ON dc."organizationId" = c."organizationId"
    WHERE c."publicId" = ${publicId}`,
    PREPARED,
  );
  const row = rows[0];
  if (!row) return null;
  const today = todayUtc();
  const status = readStatus(
    { status: String(row.status), issueDate: String(row.issueDate), expiryDate: (row.expiryDate as string | null) ?? null },
    today,
  );
  if (status !== "issued" && status !== "expired") return null;
  return {
    credentialId: String(row.id),
    visibility: row.visibility === "private" ? "private" : "public",
    recipientEmail: optionalText(row.emailNormalized),
    language: optionalText(row.language),
    version: [
      status,
      today,
      text(row.visibility),
      stamp(row.revokedAt),
      text(row.revocationReason),
      stamp(row.cu),
      stamp(row.gu),
      stamp(row.ou),
      stamp(row.ru),
      stamp(row.du),
      text(row.dn),
      text(row.verifiedDomain),
      stamp(row.verifiedAt),
      text(row.qn),
      stamp(row.qr),
    ].join("|"),
  };
}

/**
 * credential.json's version, or null where it answers 404 to everyone (as the wallet page). The
 * document does not change on a revocation (its status list says it), but its version does anyway:
 * nothing kept from before a revocation is answered after it.
 */
export async function credentialDocumentVersion(publicId: string): Promise<CredentialFaceVersion | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT c."id", c."status", c."issueDate", c."expiryDate", c."visibility", c."revokedAt",
      c."updatedAt" AS cu, g."updatedAt" AS gu, o."updatedAt" AS ou, r."updatedAt" AS ru, r."emailNormalized", ${GROUP_DESIGNS}
    FROM "Credential" c
    JOIN "Group" g ON g."id" = c."groupId"
    JOIN "Organization" o ON o."id" = c."organizationId"
    LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    WHERE c."publicId" = ${publicId}`,
    PREPARED,
  );
  const row = rows[0];
  if (!row) return null;
  const status = readStatus({
    status: String(row.status),
    issueDate: String(row.issueDate),
    expiryDate: (row.expiryDate as string | null) ?? null,
  });
  if (status !== "issued" && status !== "expired") return null;
  return {
    credentialId: String(row.id),
    visibility: row.visibility === "private" ? "private" : "public",
    recipientEmail: optionalText(row.emailNormalized),
    language: null,
    version: [
      status,
      text(row.visibility),
      stamp(row.revokedAt),
      stamp(row.cu),
      stamp(row.gu),
      stamp(row.ou),
      stamp(row.ru),
      stamp(row.du),
      text(row.dn),
    ].join("|"),
  };
}

/**
 * A status list's version, or null when there is no such list: how many of its bits are set and the
 * sum of their positions. A bit is only ever set (a revocation is final; a deleted credential's entry
 * loses its credential and counts as set), so any change changes both.
 */
export async function statusListVersion(slug: string, listNumber: number): Promise<string | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT sl."id",
      (SELECT COUNT(*) FROM "StatusListEntry" e
         LEFT JOIN "Credential" c ON c."id" = e."credentialId"
         LEFT JOIN "ApiIssuedCredential" a ON a."id" = e."apiIssuedCredentialId"
         WHERE e."statusListId" = sl."id"
           AND ((e."credentialId" IS NULL AND e."apiIssuedCredentialId" IS NULL) OR c."revokedAt" IS NOT NULL OR a."revokedAt" IS NOT NULL)) AS n,
      (SELECT SUM(e."index") FROM "StatusListEntry" e
         LEFT JOIN "Credential" c ON c."id" = e."credentialId"
         LEFT JOIN "ApiIssuedCredential" a ON a."id" = e."apiIssuedCredentialId"
         WHERE e."statusListId" = sl."id"
           AND ((e."credentialId" IS NULL AND e."apiIssuedCredentialId" IS NULL) OR c."revokedAt" IS NOT NULL OR a."revokedAt" IS NOT NULL)) AS s
    FROM "StatusList" sl JOIN "Organization" o ON o."id" = sl."organizationId"
    WHERE o."slug" = ${slug} AND sl."number" = ${listNumber}`,
    PREPARED,
  );
  const row = rows[0];
  return row ? [text(row.id), text(row.n), text(row.s)].join("|") : null;
}

/**
 * The version of what an organization publishes about itself (its DID document, OpenID4VCI metadata
 * and DID configuration), or null for an unknown slug: the organization, its keys (a rotation adds
 * one and retires another) and its domain claim. `day`: the UTC day, for documents signed with the
 * time they were made (the DID configuration's linkage credential), so a kept one is never older.
 */
export async function organizationDocumentsVersion(slug: string): Promise<string | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT o."updatedAt" AS ou, dc."updatedAt" AS dcu, dc."verifiedDomain", dc."verifiedAt",
      (SELECT COUNT(*) FROM "IssuerKey" k WHERE k."organizationId" = o."id") AS kn,
      (SELECT MAX(k."createdAt") FROM "IssuerKey" k WHERE k."organizationId" = o."id") AS kc,
      (SELECT MAX(k."retiredAt") FROM "IssuerKey" k WHERE k."organizationId" = o."id") AS kr
    FROM "Organization" o LEFT JOIN "DomainClaim" dc ON dc."organizationId" = o."id"
    WHERE o."slug" = ${slug}`,
    PREPARED,
  );
  const row = rows[0];
  if (!row) return null;
  return [
    todayUtc(),
    stamp(row.ou),
    stamp(row.dcu),
    text(row.verifiedDomain),
    stamp(row.verifiedAt),
    text(row.kn),
    stamp(row.kc),
    stamp(row.kr),
  ].join("|");
}

/**
 * The issuer profile page's version (/organizations/<slug>), or null for an unknown slug: the
 * organization (its name and logo), its domain claim, and how many credentials it has issued, which
 * the page prints (counted from the covering index the page's own count uses).
 */
export async function issuerProfileVersion(slug: string): Promise<string | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT o."updatedAt" AS ou, dc."updatedAt" AS dcu, dc."verifiedDomain", dc."verifiedAt",
      (SELECT COUNT(*) FROM "Credential" c WHERE c."organizationId" = o."id" AND c."status" = 'issued') AS cn
    FROM "Organization" o LEFT JOIN "DomainClaim" dc ON dc."organizationId" = o."id"
    WHERE o."slug" = ${slug}`,
    PREPARED,
  );
  const row = rows[0];
  if (!row) return null;
  return [todayUtc(), stamp(row.ou), stamp(row.dcu), text(row.verifiedDomain), stamp(row.verifiedAt), text(row.cn)].join("|");
}

/**
 * A public profile's version, or null when the handle names no public profile: the profile row and
 * every credential of its email with what its card shows (group, organization and its verified
 * domain, designs), counted and stamped, and today's date (scheduled credentials arrive, expiry
 * dates pass).
 */
export async function publicProfileVersion(handle: string): Promise<string | null> {
  const rows = await directQuery(
    Prisma.sql`
    SELECT p."updatedAt" AS pu, p."public", p."displayName",
      COUNT(DISTINCT c."id") AS cn, COUNT(DISTINCT c."revokedAt") AS rn,
      COUNT(DISTINCT CASE WHEN c."visibility" = 'private' THEN c."id" END) AS vn,
      MAX(c."updatedAt") AS cu, MAX(g."updatedAt") AS gu, MAX(o."updatedAt") AS ou, MAX(dc."updatedAt") AS dcu, MAX(d."updatedAt") AS du,
      COUNT(d."id") AS dn
    FROM "WalletProfile" p
    LEFT JOIN "Recipient" r ON r."emailNormalized" = p."emailNormalized"
    LEFT JOIN "Credential" c ON c."recipientId" = r."id"
    LEFT JOIN "Group" g ON g."id" = c."groupId"
    LEFT JOIN "Organization" o ON o."id" = c."organizationId"
    LEFT JOIN "DomainClaim" dc ON dc."organizationId" = c."organizationId"
    LEFT JOIN "GroupDesign" gd ON gd."groupId" = c."groupId"
    LEFT JOIN "Design" d ON d."id" = gd."designId"
    WHERE p."handle" = ${handle}
    GROUP BY p."updatedAt", p."public", p."displayName"`,
    PREPARED,
  );
  const row = rows[0];
  if (!row || !(row.public === true || Number(row.public) === 1) || row.displayName === null) return null;
  return [
    todayUtc(),
    stamp(row.pu),
    text(row.cn),
    text(row.rn),
    text(row.vn),
    stamp(row.cu),
    stamp(row.gu),
    stamp(row.ou),
    stamp(row.dcu),
    stamp(row.du),
    text(row.dn),
  ].join("|");
}
