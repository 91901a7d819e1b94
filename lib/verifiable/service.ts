// Signed Open Badges 3.0 credentials and the status lists they point at (docs/api.md, Verifiable credentials).
//
// A credential's document is built from its current rows (open-badge.ts, pure), and the digest of that
// unsigned content names its signed form: the first request for a content signs it and stores it
// (SignedCredential), later ones answer from the row, and any change that alters the content (names,
// dates, the group's texts, the organization's name or logo, the designs' images) gives a new digest
// and so a newly signed document. Signing happens on first request, never in the issue transaction.
// Old documents keep verifying: their keys stay in the organization's DID document.
import { createHash, randomUUID } from "node:crypto";
import { ApiError, notFound } from "../core/errors";
import { processSingleton } from "../core/process-singleton";
import { config } from "../config";
import { appSecret } from "../app-secret";
import { walletUrl } from "../attribute-values/credential-values";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { rawDate } from "../db/raw-values";
import { Prisma } from "../generated/sqlite/client";
import { issuerDid, issuerSigner } from "../issuers/service";
import { shownCredentialDesigns } from "../previews/credential-designs";
import { createDocumentLoader, type DocumentLoader, type UrlResolver } from "./document-loader";
import { identitySalt } from "./identity";
import { buildAchievementDocument, buildOpenBadgeCredential } from "./open-badge";
import { resolveOwnDid } from "./own-did";
import { jsonWithProofArray } from "./proof-array";
import { signDocument } from "./signing";
import { statusEntryFor } from "./status-entries";
import { buildStatusListCredential, encodeRevocationList } from "./status-list";

/** A document ready to serve: its JSON text and an ETag naming exactly these bytes. */
export type ServedDocument = { json: string; etag: string };

/**
 * The loader for this instance's own documents: bundled contexts, our DIDs and our status lists read
 * from the database. Nothing goes over the network.
 */
export function ownDocumentLoader(): DocumentLoader {
  return processSingleton("verifiable.ownLoader", () =>
    createDocumentLoader({ resolveDid: resolveOwnDid, resolveUrl: resolveOwnStatusList }),
  );
}

/** One of our status list URLs, parsed; null for any other URL. */
export function parseOwnStatusListUrl(url: string): { slug: string; listNumber: number } | null {
  const prefix = `${config().publicUrl}/organizations/`;
  if (!url.startsWith(prefix)) return null;
  const match = /^([^/?#]+)\/status\/([1-9][0-9]{0,8})$/.exec(url.slice(prefix.length));
  if (!match) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return statusListUrl(slug, Number(match[2])) === url ? { slug, listNumber: Number(match[2]) } : null;
}

/** Our own status list credentials, from the database (for the document loader); null for other URLs. */
export const resolveOwnStatusList: UrlResolver = async (url) => {
  const parsed = parseOwnStatusListUrl(url);
  if (!parsed) return null;
  try {
    return JSON.parse((await statusListCredential(parsed.slug, parsed.listNumber)).json) as object;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  }
};

/** `{WALLET_URL}/credentials/<publicId>/credential.json`: where the document is served, and its id. */
export function credentialDocumentUrl(publicId: string): string {
  return `${walletUrl(publicId)}/credential.json`;
}

/** `{PUBLIC_URL}/organizations/<slug>/status/<number>`: a status list credential. */
export function statusListUrl(slug: string, listNumber: number): string {
  return `${config().publicUrl}/organizations/${encodeURIComponent(slug)}/status/${listNumber}`;
}

/** The group as an Open Badges Achievement: a stable URI under its organization. */
function achievementId(slug: string, groupId: string): string {
  return `${config().publicUrl}/organizations/${encodeURIComponent(slug)}/achievements/${encodeURIComponent(groupId)}`;
}

function profileUrl(slug: string): string {
  return `${config().publicUrl}/organizations/${encodeURIComponent(slug)}`;
}

/**
 * `{PUBLIC_URL}/organizations/<slug>/achievements/<groupId>`: the Achievement a credential's
 * `achievement.id` names, so that the URI resolves for verifiers and wallets that follow it. Public only
 * once the group has a public credential (issued, expired or revoked), so nothing is shown that no
 * credential page shows already; otherwise, and for another organization's slug, 404.
 */
export async function publicAchievement(slug: string, groupId: string): Promise<ServedDocument> {
  const today = new Date().toISOString().slice(0, 10);
  const group = await db().group.findFirst({
    where: {
      id: groupId,
      organization: { slug },
      credentials: { some: { OR: [{ status: "issued" }, { status: "scheduled", issueDate: { lte: today } }] } },
    },
    select: { id: true, name: true, description: true, criteria: true, organization: { select: { slug: true, name: true } } },
  });
  if (!group) throw notFound("Achievement");
  const org = group.organization;
  const document = buildAchievementDocument(
    { achievementId: achievementId(org.slug, group.id), name: group.name, description: group.description, criteria: group.criteria },
    { did: issuerDid(org.slug), name: org.name, profileUrl: profileUrl(org.slug) },
  );
  const json = JSON.stringify(document);
  return { json, etag: `"${sha256Hex(json).slice(0, 40)}"` };
}

/**
 * The logo's URL, versioned by the organization's last change so that a new logo changes the signed
 * content (the route ignores the query; caches see a new URL).
 */
function logoUrl(org: { id: string; logoMimeType: string | null; updatedAt: Date }): string | null {
  if (org.logoMimeType === null) return null;
  return `${config().publicUrl}/organizations/${encodeURIComponent(org.id)}/logo?v=${org.updatedAt.getTime().toString(36)}`;
}

const credentialSelect = {
  id: true,
  publicId: true,
  organizationId: true,
  status: true,
  recipientName: true,
  issueDate: true,
  expiryDate: true,
  recipient: { select: { email: true } },
  group: { select: { id: true, name: true, description: true, criteria: true } },
  organization: { select: { id: true, slug: true, name: true, logoMimeType: true, updatedAt: true } },
} as const;

type CredentialForDocument = NonNullable<Awaited<ReturnType<typeof findForDocument>>>;

function findForDocument(where: { publicId: string } | { id: string; organizationId: string }) {
  return db().credential.findFirst({ where, select: credentialSelect });
}

async function unsignedDocument(credential: CredentialForDocument) {
  const org = credential.organization;
  const [status, designs] = await Promise.all([statusEntryFor(credential), shownCredentialDesigns(org, credential.id)]);
  const image = designs.find((d) => d.unsupportedText === null)?.previews.find((p) => p.format === "png")?.url ?? null;
  return buildOpenBadgeCredential({
    documentUrl: credentialDocumentUrl(credential.publicId),
    credential: {
      issueDate: credential.issueDate,
      expiryDate: credential.expiryDate,
      recipientName: credential.recipientName,
      recipientEmail: credential.recipient?.email ?? null,
      identitySalt: identitySalt(credential.id, appSecret()),
    },
    organization: { did: issuerDid(org.slug), name: org.name, logoUrl: logoUrl(org), profileUrl: profileUrl(org.slug) },
    group: { achievementId: achievementId(org.slug, credential.group.id), ...credential.group },
    imageUrl: image,
    status: { listUrl: statusListUrl(org.slug, status.listNumber), index: status.index },
  });
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

// Signed documents never change for a (credential, content digest), so they can be kept in memory
// too. Bounded, oldest first out.
const SIGNED_CACHE_SIZE = 5000;

function signedCache(): Map<string, string> {
  return processSingleton("verifiable.signedDocuments", () => new Map<string, string>());
}

/** The signed document for this content: from memory, from its row, or signed now and stored. */
async function signedDocument(credential: CredentialForDocument): Promise<ServedDocument> {
  const unsigned = await unsignedDocument(credential);
  const contentDigest = sha256Hex(JSON.stringify(unsigned));
  const etag = `"${contentDigest.slice(0, 40)}"`;
  const key = `${credential.id}:${contentDigest}`;
  const cache = signedCache();
  const cached = cache.get(key);
  if (cached !== undefined) return { json: cached, etag };

  const where = { credentialId_contentDigest: { credentialId: credential.id, contentDigest } };
  // A document stored before proofs became arrays is served in the array form (proof-array.ts).
  const stored = (await db().signedCredential.findUnique({ where, select: { document: true } }))?.document;
  let json = stored === undefined ? undefined : jsonWithProofArray(stored);
  if (json === undefined) {
    const signed = await signDocument(unsigned, await issuerSigner(credential.organization), ownDocumentLoader());
    json = JSON.stringify(signed);
    try {
      await db().signedCredential.create({ data: { credentialId: credential.id, contentDigest, document: json } });
    } catch (error) {
      // Signed by a concurrent request first: serve theirs, so every answer for a content is the same.
      if (!isUniqueViolation(error)) throw error;
      json = jsonWithProofArray((await db().signedCredential.findUniqueOrThrow({ where, select: { document: true } })).document);
    }
  }
  if (cache.size >= SIGNED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, json);
  return { json, etag };
}

/**
 * The public document at `{WALLET_URL}/credentials/<publicId>/credential.json`, or null where the
 * wallet page answers 404 (unknown, draft, scheduled or deleted). A revoked credential's is served: its
 * status says revoked.
 */
export async function publicOpenBadgeCredential(publicId: string): Promise<ServedDocument | null> {
  // The public document is fetched by every verifier and badge tool: answer it from memory while
  // nothing it is built from has changed, which one indexed query tells (its state also decides
  // 404 vs 200).
  const row = await documentVersion(publicId);
  if (!row) return null;
  const status = readStatus(row);
  if (status !== "issued" && status !== "expired") return null;
  const recent = recentlyServed().get(publicId);
  if (recent && recent.version === row.version && recent.freshUntil > Date.now()) return recent.served;

  const credential = await findForDocument({ publicId });
  if (!credential) return null;
  const served = await signedDocument(credential);
  rememberServed(publicId, { version: row.version, freshUntil: Date.now() + RECENT_TTL_MS, served });
  return served;
}

/**
 * The credential's state and a key that changes whenever a row its document is built from changes:
 * the credential, its recipient, group, organization (name, logo) and the group's designs (which give
 * the image URL). One query, the same SQL on both engines.
 */
async function documentVersion(
  publicId: string,
): Promise<{ status: string; issueDate: string; expiryDate: string | null; version: string } | null> {
  const rows = await db().$queryRaw<Record<string, unknown>[]>(Prisma.sql`
    SELECT c."status", c."issueDate", c."expiryDate", c."updatedAt" AS cu, g."updatedAt" AS gu, o."updatedAt" AS ou, r."updatedAt" AS ru,
      (SELECT MAX(d."updatedAt") FROM "GroupDesign" gd JOIN "Design" d ON d."id" = gd."designId" WHERE gd."groupId" = c."groupId") AS du,
      (SELECT COUNT(*) FROM "GroupDesign" gd WHERE gd."groupId" = c."groupId") AS dn
    FROM "Credential" c
    JOIN "Group" g ON g."id" = c."groupId"
    JOIN "Organization" o ON o."id" = c."organizationId"
    LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    WHERE c."publicId" = ${publicId}`);
  const row = rows[0];
  if (!row) return null;
  const stamp = (v: unknown) => (v === null || v === undefined ? "-" : String(rawDate(v).getTime()));
  return {
    status: String(row.status),
    issueDate: String(row.issueDate),
    expiryDate: typeof row.expiryDate === "string" ? row.expiryDate : null,
    version: [stamp(row.cu), stamp(row.gu), stamp(row.ou), stamp(row.ru), stamp(row.du), String(row.dn)].join("|"),
  };
}

// What the public route answered lately, per credential, with the version it was built from. The TTL
// is a safety net (the route's own max-age) for a change the version key would not show; whatever is
// served is a document this service signed and that keeps verifying. Revocation is not in the
// document at all (the status list says it).
const RECENT_TTL_MS = 60_000;
const RECENT_CACHE_SIZE = 5000;
type RecentDocument = { version: string; freshUntil: number; served: ServedDocument };

function recentlyServed(): Map<string, RecentDocument> {
  return processSingleton("verifiable.recentPublicDocuments", () => new Map<string, RecentDocument>());
}

function rememberServed(publicId: string, entry: RecentDocument): void {
  const cache = recentlyServed();
  cache.delete(publicId);
  if (cache.size >= RECENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(publicId, entry);
}

/** The same document for the API: not_found outside the organization, conflict until it is issued. */
export async function organizationOpenBadgeCredential(organization: { id: string }, id: string): Promise<ServedDocument> {
  const credential = await findForDocument({ id, organizationId: organization.id });
  if (!credential) throw notFound("Credential");
  const status = readStatus(credential);
  if (status === "draft" || status === "scheduled") {
    throw new ApiError("conflict", `This credential is ${status}: its verifiable credential exists once it is issued.`);
  }
  return signedDocument(credential);
}

// A status list is re-signed only when its set bits change: a burst of verifications is answered
// from memory, and a revocation is visible on the next request (then within the HTTP max-age).
type SignedList = { bitsDigest: string; served: ServedDocument };

const STATUS_LIST_CACHE_SIZE = 1000;

function listCache(): Map<string, SignedList> {
  return processSingleton("verifiable.statusLists", () => new Map<string, SignedList>());
}

/**
 * Indexes whose bit is set: entries of revoked credentials (ours or signed through the VC API), and of
 * deleted ones (an entry that no longer belongs to anything).
 */
async function setIndexes(statusListId: string): Promise<number[]> {
  const rows = await db().statusListEntry.findMany({
    where: {
      statusListId,
      OR: [
        { credentialId: null, apiIssuedCredentialId: null },
        { credential: { revokedAt: { not: null } } },
        { apiIssuedCredential: { revokedAt: { not: null } } },
      ],
    },
    select: { index: true },
    orderBy: { index: "asc" },
  });
  return rows.map((r) => r.index);
}

/** The signed BitstringStatusListCredential at `/organizations/<slug>/status/<number>`; not_found when there is none. */
export async function statusListCredential(slug: string, listNumber: number): Promise<ServedDocument> {
  const org = await db().organization.findUnique({ where: { slug }, select: { id: true, slug: true } });
  const list = org
    ? await db().statusList.findUnique({ where: { organizationId_number: { organizationId: org.id, number: listNumber } } })
    : null;
  if (!org || !list) throw notFound("Status list");
  const indexes = await setIndexes(list.id);
  const bitsDigest = sha256Hex(`${list.length}:${indexes.join(",")}`);
  const cache = listCache();
  const cached = cache.get(list.id);
  if (cached?.bitsDigest === bitsDigest) return cached.served;

  const unsigned = buildStatusListCredential({
    listUrl: statusListUrl(org.slug, list.number),
    issuerDid: issuerDid(org.slug),
    encodedList: await encodeRevocationList(list.length, indexes),
    validFrom: new Date(),
  });
  const json = JSON.stringify(await signDocument(unsigned, await issuerSigner(org), ownDocumentLoader()));
  const served = { json, etag: `"${sha256Hex(json).slice(0, 40)}"` };
  if (cache.size >= STATUS_LIST_CACHE_SIZE && !cache.has(list.id)) cache.delete(cache.keys().next().value!);
  cache.set(list.id, { bitsDigest, served });
  return served;
}

/**
 * A copy of the credential's document bound to a wallet app's key (OpenID for Verifiable Credential
 * Issuance): the same content, with `credentialSubject.id` the holder's DID and an id of its own, signed
 * now by the organization's current key. It keeps the credential's own `credentialStatus`, so revoking
 * the credential revokes every copy. Copies are not stored: each claim signs its own.
 */
export async function holderBoundOpenBadgeCredential(
  organization: { id: string },
  credentialId: string,
  holderDid: string,
): Promise<Record<string, unknown>> {
  const credential = await findForDocument({ id: credentialId, organizationId: organization.id });
  if (!credential) throw notFound("Credential");
  const unsigned = await unsignedDocument(credential);
  const bound = { ...unsigned, id: `urn:uuid:${randomUUID()}`, credentialSubject: { id: holderDid, ...unsigned.credentialSubject } };
  return signDocument(bound, await issuerSigner(credential.organization), ownDocumentLoader());
}
