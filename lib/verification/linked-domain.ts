// The issuer's linked domain (DIF Well-Known DID Configuration): a website that publishes, at
// https://<domain>/.well-known/did-configuration.json, a Domain Linkage Credential signed by the
// issuer's DID for that origin says "whoever controls this website controls this DID". The origins to
// try are those the DID document lists in a LinkedDomains service, and a did:web DID's own host. Each
// file is fetched through lib/net (public addresses only, a deadline, a size cap); only JSON-LD
// linkage credentials are read (the JWT form is skipped). This instance's own organizations are not
// looked up here: their domains were verified when claimed, and verifying them needs no network.
import { checkCredentialDataModel } from "../verifiable/data-model";
import { isLoopbackHost } from "../net/address-policy";
import type { ResolvedDidDocument } from "../verifiable/document-loader";
import { fetchJsonObject, RemoteDocumentError } from "./remote-json";
import { verifyProof } from "./signature-check";

const MAX_CONFIGURATION_BYTES = 64 * 1024;
/** Origins tried per issuer, at most: each is a request to another server. */
const MAX_ORIGINS = 3;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** An origin (scheme, host, port) as a URL's origin, or null for anything that is not http(s). */
function originOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** The origins the DID document lists as LinkedDomains (a string, a list, or {"origins": [...]}). */
function listedOrigins(didDocument: ResolvedDidDocument): string[] {
  const origins: string[] = [];
  for (const service of asArray(didDocument.service)) {
    if (!isObject(service) || !asArray(service.type).includes("LinkedDomains")) continue;
    const endpoint = service.serviceEndpoint;
    const values = isObject(endpoint) ? asArray(endpoint.origins) : asArray(endpoint);
    for (const value of values) {
      const origin = originOf(value);
      if (origin) origins.push(origin);
    }
  }
  return origins;
}

/** A did:web DID's own origin (https; http for a loopback host, a development issuer). */
function didWebOrigin(did: string): string | null {
  const parts = did.split(":");
  if (parts[0] !== "did" || parts[1] !== "web" || !parts[2]) return null;
  let host: string;
  try {
    host = decodeURIComponent(parts[2]);
  } catch {
    return null;
  }
  return originOf(`${isLoopbackHost(host.replace(/:\d+$/, "")) ? "http" : "https"}://${host}`);
}

/** Whether one linkage credential ties `did` to `origin`: its shape, its dates and its proof. */
async function linksDid(credential: unknown, did: string, origin: string, didDocument: ResolvedDidDocument, now: Date) {
  if (!isObject(credential) || !asArray(credential.type).includes("DomainLinkageCredential")) return false;
  const issuer = isObject(credential.issuer) ? credential.issuer.id : credential.issuer;
  const subject = asArray(credential.credentialSubject).find(isObject);
  if (issuer !== did || subject?.id !== did || originOf(subject.origin) !== origin) return false;
  if (!checkCredentialDataModel(credential).ok) return false;
  const until = credential.expirationDate ?? credential.validUntil;
  if (typeof until === "string" && Date.parse(until) < now.getTime()) return false;
  const from = credential.issuanceDate ?? credential.validFrom;
  if (typeof from === "string" && Date.parse(from) > now.getTime()) return false;
  return (await verifyProof(credential, didDocument)).verified;
}

/** The host whose website links itself to `did`, or null when none does (or none could be read). */
export async function linkedDomainOf(did: string, didDocument: ResolvedDidDocument, now: Date = new Date()): Promise<string | null> {
  const own = didWebOrigin(did);
  const origins = [...new Set([...listedOrigins(didDocument), ...(own ? [own] : [])])].slice(0, MAX_ORIGINS);
  for (const origin of origins) {
    let configuration: Record<string, unknown>;
    try {
      configuration = await fetchJsonObject(`${origin}/.well-known/did-configuration.json`, MAX_CONFIGURATION_BYTES);
    } catch (error) {
      if (error instanceof RemoteDocumentError) continue;
      throw error;
    }
    for (const credential of asArray(configuration.linked_dids).slice(0, 10)) {
      if (await linksDid(credential, did, origin, didDocument, now)) return new URL(origin).hostname;
    }
  }
  return null;
}
