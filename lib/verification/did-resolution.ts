// Resolving an issuer's DID for verification. This instance's own organizations' did:web DIDs are read
// from the database (no network, and nothing that answers at our host name can impersonate them);
// another host's did:web DID is fetched over HTTPS through lib/net; a did:key DID is its own document,
// expanded by @digitalbazaar/did-method-key without any network. No other DID method is resolved.
import { driver as didKeyDriver } from "@digitalbazaar/did-method-key";
import * as EcdsaMultikey from "@digitalbazaar/ecdsa-multikey";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
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

// did:key keys as Multikey verification methods: Ed25519 (z6Mk) for eddsa-rdfc-2022 and
// Ed25519Signature2020 (which accepts Multikey), P-256 (zDna) and P-384 (z82L) for ecdsa-rdfc-2019.
const didKey = didKeyDriver();
didKey.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519Multikey.from });
didKey.use({ multibaseMultikeyHeader: "zDna", fromMultibase: EcdsaMultikey.from });
didKey.use({ multibaseMultikeyHeader: "z82L", fromMultibase: EcdsaMultikey.from });

async function resolveDidKey(did: string): Promise<DidResolution> {
  try {
    const document = (await didKey.get({ did })) as ResolvedDidDocument;
    return { ok: true, document, local: false, slug: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: "not_found", reason: `${did.slice(0, 200)} is not a did:key this verifier reads: ${reason}` };
  }
}

export async function resolveIssuerDid(did: string): Promise<DidResolution> {
  if (did.startsWith("did:key:")) return resolveDidKey(did);
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
        ? `DIDs of the method "${method}" are not resolved by this verifier (only did:web and did:key).`
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
