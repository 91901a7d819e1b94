// Spent OpenID4VCI rows, deleted by the background cleanup (lib/background.ts): an offer whose code can
// no longer be redeemed and whose access token (if it was redeemed) has expired too, and expired nonces.
// Every use already checks expiry, so deleting only frees space; nothing live is touched.
import { db } from "../db";

const BATCH = 500;

/** Deletes up to a batch of expired offers and of expired nonces; returns how many rows went. */
export async function retireExpiredOid4vciRows(now = new Date()): Promise<number> {
  // A redeemed offer carries its access token, which may outlive the code by a few minutes.
  const offers = await db().oid4vciOffer.findMany({
    where: { expiresAt: { lte: now }, OR: [{ accessTokenExpiresAt: null }, { accessTokenExpiresAt: { lte: now } }] },
    select: { id: true },
    take: BATCH,
  });
  const nonces = await db().oid4vciNonce.findMany({ where: { expiresAt: { lte: now } }, select: { nonceHash: true }, take: BATCH });
  if (offers.length > 0) await db().oid4vciOffer.deleteMany({ where: { id: { in: offers.map((r) => r.id) } } });
  if (nonces.length > 0) await db().oid4vciNonce.deleteMany({ where: { nonceHash: { in: nonces.map((r) => r.nonceHash) } } });
  return offers.length + nonces.length;
}
