// This instance's own did:web DIDs (`did:web:<PUBLIC_URL host>:organizations:<slug>`), resolved from
// the database through lib/issuers rather than over HTTP: signing and verifying our own credentials
// needs no network, and cannot be fooled by whatever answers at our host name.
import { issuerDid, organizationDidDocument } from "../issuers/service";
import type { DidResolver } from "./document-loader";

/** The slug of the organization whose DID `did` is, when it is one of ours; otherwise null. */
export function ownDidSlug(did: string): string | null {
  // The DID of a placeholder slug tells the prefix every organization's DID shares on this instance.
  const marker = "slug-marker";
  const sample = issuerDid(marker);
  const prefix = sample.slice(0, sample.length - marker.length);
  if (!did.startsWith(prefix)) return null;
  const encoded = did.slice(prefix.length);
  if (encoded === "" || encoded.includes(":")) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  // Only the exact spelling we hand out: another encoding of the same slug is another DID.
  return issuerDid(slug) === did ? slug : null;
}

/** Resolves this instance's organizations' DIDs; any other DID resolves to null. */
export const resolveOwnDid: DidResolver = async (did) => {
  const slug = ownDidSlug(did);
  if (slug === null) return null;
  try {
    return await organizationDidDocument(slug);
  } catch (error) {
    if ((error as { code?: string }).code === "not_found") return null;
    throw error;
  }
};
