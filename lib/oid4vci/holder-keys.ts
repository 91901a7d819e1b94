// The wallet's key, as a proof of possession names it: a `did:key` (Ed25519 or P-256) or `did:jwk` DID
// URL in `kid`, or a bare `jwk` header. Each resolves to a public JWK (to check the proof with) and to
// the DID the credential is bound to (`credentialSubject.id`): a bare JWK becomes its did:jwk.
import * as EcdsaMultikey from "@digitalbazaar/ecdsa-multikey";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { driver as didKeyDriver } from "@digitalbazaar/did-method-key";
import { base64url } from "jose";
import { processSingleton } from "../core/process-singleton";

export type PublicJwk = { kty: string; crv?: string; x?: string; y?: string; [key: string]: unknown };

/** Why a holder key could not be used; the message is safe to show the wallet. */
export class HolderKeyError extends Error {}

// did:key multikey headers we accept: Ed25519 and the NIST curves the Digital Bazaar ECDSA package reads.
const ED25519_HEADER = "z6Mk";
const ECDSA_HEADERS = ["zDna", "z82L", "z2J9"];

function didKeyResolver() {
  return processSingleton("oid4vci.didKeyDriver", () => {
    const resolver = didKeyDriver();
    resolver.use({ multibaseMultikeyHeader: ED25519_HEADER, fromMultibase: Ed25519Multikey.from });
    for (const header of ECDSA_HEADERS) resolver.use({ multibaseMultikeyHeader: header, fromMultibase: EcdsaMultikey.from });
    return resolver;
  });
}

/** Only the public members, in the order RFC 7638 lists them: what a did:jwk of the key encodes. */
function publicMembers(jwk: PublicJwk): PublicJwk {
  if (typeof jwk.kty !== "string") throw new HolderKeyError("The key has no kty.");
  if ("d" in jwk) throw new HolderKeyError("The key must be a public key (it has a private part).");
  if (jwk.kty === "OKP" || jwk.kty === "EC") {
    const members: PublicJwk = { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
    if (jwk.kty === "EC") members.y = jwk.y;
    for (const [name, value] of Object.entries(members)) {
      if (typeof value !== "string" || value === "") throw new HolderKeyError(`The key's ${name} is missing.`);
    }
    return members;
  }
  throw new HolderKeyError(`Keys of type ${JSON.stringify(jwk.kty)} are not supported; use an OKP (Ed25519) or EC key.`);
}

/** `did:jwk:<base64url of the JWK's JSON>` (the did:jwk method). */
export function didJwkFor(jwk: PublicJwk): string {
  return `did:jwk:${base64url.encode(JSON.stringify(publicMembers(jwk)))}`;
}

function splitDidUrl(didUrl: string): { did: string; fragment: string | null } {
  const hash = didUrl.indexOf("#");
  return hash === -1 ? { did: didUrl, fragment: null } : { did: didUrl.slice(0, hash), fragment: didUrl.slice(hash + 1) };
}

async function resolveDidJwk(did: string, fragment: string | null): Promise<PublicJwk> {
  if (fragment !== null && fragment !== "0") throw new HolderKeyError("A did:jwk key is named by the fragment #0.");
  let jwk: unknown;
  try {
    jwk = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(base64url.decode(did.slice("did:jwk:".length))));
  } catch {
    throw new HolderKeyError("The did:jwk does not encode a JSON key.");
  }
  if (!jwk || typeof jwk !== "object" || Array.isArray(jwk)) throw new HolderKeyError("The did:jwk does not encode a key.");
  return publicMembers(jwk as PublicJwk);
}

async function resolveDidKey(did: string, fragment: string | null): Promise<PublicJwk> {
  const multibase = did.slice("did:key:".length);
  if (fragment !== null && fragment !== multibase)
    throw new HolderKeyError("A did:key key is named by its own multibase value as fragment.");
  let method;
  try {
    method = (await didKeyResolver().get({ did })).verificationMethod[0];
  } catch {
    throw new HolderKeyError("The did:key could not be resolved (only Ed25519 and P-256/P-384/P-521 keys are supported).");
  }
  if (!method) throw new HolderKeyError("The did:key has no verification method.");
  const multikey = method.publicKeyMultibase.startsWith(ED25519_HEADER) ? Ed25519Multikey : EcdsaMultikey;
  const keyPair = await multikey.from(method);
  return publicMembers((await multikey.toJwk({ keyPair })) as PublicJwk);
}

/** The public key a DID URL (`did:key:…#…`, `did:jwk:…#0`, or the bare DID) names. */
export async function resolveHolderKey(didUrl: string): Promise<{ did: string; jwk: PublicJwk }> {
  const { did, fragment } = splitDidUrl(didUrl);
  if (did.startsWith("did:jwk:")) return { did, jwk: await resolveDidJwk(did, fragment) };
  if (did.startsWith("did:key:")) return { did, jwk: await resolveDidKey(did, fragment) };
  throw new HolderKeyError("Only did:key and did:jwk holder keys (or a jwk header) are supported.");
}
