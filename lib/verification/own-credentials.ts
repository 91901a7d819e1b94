// What this instance knows first-hand about credentials it issued: the signed document behind one of
// its own wallet or credential.json URLs (read locally, never fetched from ourselves), and when and
// why one was revoked (the status list only says that it was).
import { config } from "../config";
import { db } from "../db";
import { publicOpenBadgeCredential } from "../verifiable/service";

const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The public id in one of our credential URLs: the wallet page, its credential.json or its baked PNG
 * (`{WALLET_URL}/credentials/<publicId>[/credential.json|/badge.png]`, any query). Null for any other URL.
 */
export function ownCredentialPublicId(raw: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(raw);
    base = new URL(`${config().walletUrl}/`);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const prefix = `${base.pathname}credentials/`;
  if (!url.pathname.startsWith(prefix)) return null;
  const match = /^([^/]+)(?:\/(?:credential\.json|badge\.png))?\/?$/.exec(url.pathname.slice(prefix.length));
  return match && PUBLIC_ID.test(match[1]!) ? match[1]!.toLowerCase() : null;
}

/**
 * The signed document of one of our credentials, or null where its wallet page answers 404 to a client
 * without the recipient's wallet session, as a fetch of the address would: unknown, not issued, or
 * private (the recipient's choice hides it from everyone else, verifiers by address included).
 */
export async function ownSignedCredential(publicId: string): Promise<string | null> {
  const row = await db().credential.findUnique({ where: { publicId }, select: { visibility: true } });
  if (!row || row.visibility === "private") return null;
  return (await publicOpenBadgeCredential(publicId))?.json ?? null;
}

/** When and why one of our credentials was revoked, from the document's id (its credential.json URL). */
export async function ownRevocation(documentId: unknown): Promise<{ revokedAt: string; reason: string | null } | null> {
  if (typeof documentId !== "string") return null;
  const publicId = ownCredentialPublicId(documentId);
  if (!publicId) return null;
  const row = await db().credential.findUnique({ where: { publicId }, select: { revokedAt: true, revocationReason: true } });
  return row?.revokedAt ? { revokedAt: row.revokedAt.toISOString(), reason: row.revocationReason } : null;
}
