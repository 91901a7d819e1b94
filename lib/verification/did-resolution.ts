// Resolving an issuer's DID for verification. This instance's own organizations' did:web DIDs are read
// from the database (no network, and nothing that answers at our host name can impersonate them);
// another host's did:web DID is fetched over HTTPS through lib/net. No other DID method is resolved.
import type { ResolvedDidDocument } from "../verifiable/document-loader";
import { ownDidSlug, resolveOwnDid } from "../verifiable/own-did";
import { isLoopbackHost } from "../net/address-policy";
import { fetchJsonObject, RemoteDocumentError } from "./remote-json";

const MAX_DID_DOCUMENT_BYTES = 64 * 1024;

export type DidResolution =
  | { ok: true; document: ResolvedDidDocument; local: boolean; slug: string | null }
  /** `unresolvable`: we could not find out (network, unsupported method); `not_found`: it names nothing. */
  | { ok: false; kind: "unresolvable" | "not_found"; reason: string };

/**
 * The URL of a did:web DID's document (did:web method specification §3.2): the host (its port
 * percent-encoded), then the path segments, then `did.json`; no path means `/.well-known/did.json`.
 * https, except for a loopback host (a development or test issuer), which lib/net only calls over http.
 */
export function didWebDocumentUrl(did: string): string | null {
  const parts = did.split(":");
  if (parts.length < 3 || parts[0] !== "did" || parts[1] !== "web" || parts.slice(2).some((p) => p === "")) return null;
  let host: string;
  let segments: string[];
  try {
    host = decodeURIComponent(parts[2]!);
    segments = parts.slice(3).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (/[/?#@\s]/.test(host) || segments.some((s) => s.includes("/"))) return null;
  const hostname = host.replace(/:\d+$/, "");
  const scheme = isLoopbackHost(hostname) ? "http" : "https";
  const path = segments.length === 0 ? ".well-known" : segments.map(encodeURIComponent).join("/");
  return `${scheme}://${host}/${path}/did.json`;
}

export async function resolveIssuerDid(did: string): Promise<DidResolution> {
  const slug = ownDidSlug(did);
  if (slug !== null) {
    const document = await resolveOwnDid(did);
    return document
      ? { ok: true, document, local: true, slug }
      : { ok: false, kind: "not_found", reason: `No organization on this service has the DID ${did}.` };
  }
  if (!did.startsWith("did:web:")) {
    const method = did.startsWith("did:") ? did.split(":")[1] : null;
    return {
      ok: false,
      kind: "unresolvable",
      reason: method
        ? `DIDs of the method "${method}" are not resolved by this verifier (only did:web).`
        : `${did.slice(0, 200)} is not a DID.`,
    };
  }
  const url = didWebDocumentUrl(did);
  if (!url) return { ok: false, kind: "not_found", reason: `${did.slice(0, 200)} is not a well-formed did:web DID.` };
  try {
    const document = await fetchJsonObject(url, MAX_DID_DOCUMENT_BYTES);
    if (document.id !== did)
      return {
        ok: false,
        kind: "not_found",
        reason: `The document at ${url} is not the DID document of ${did} (its id is ${JSON.stringify(document.id)}).`,
      };
    return { ok: true, document: document as ResolvedDidDocument, local: false, slug: null };
  } catch (error) {
    if (error instanceof RemoteDocumentError) return { ok: false, kind: "unresolvable", reason: error.message };
    throw error;
  }
}
