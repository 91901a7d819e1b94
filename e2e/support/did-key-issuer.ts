// A did:key issuer (Ed25519) signing with the Digital Bazaar libraries, as another system or a wallet
// would: for specs that need a credential of an issuer other than this instance.
// The app's declarations of these untyped packages; an import would load them at run time.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../lib/verifiable/digitalbazaar.d.ts" />
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../lib/issuers/ed25519-multikey.d.ts" />
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A did:key issuer (Ed25519) and a document loader knowing only published contexts and did:key DIDs. */
export async function didKeyIssuer() {
  const Ed25519Multikey = await import("@digitalbazaar/ed25519-multikey");
  const { driver } = await import("@digitalbazaar/did-method-key");
  const didKey = driver();
  didKey.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519Multikey.from });
  const contexts = new Map<string, unknown>();
  for (const pkg of [
    "@digitalbazaar/credentials-context",
    "@digitalbazaar/data-integrity-context",
    "@digitalbazaar/multikey-context",
    "did-context",
  ]) {
    for (const [url, context] of (require(pkg) as { contexts: Map<string, unknown> }).contexts) contexts.set(url, context);
  }
  const documentLoader = async (url: string) => {
    if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
    if (url.startsWith("did:key:")) return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
    throw new Error(`refusing to load ${url}`);
  };
  const key = await Ed25519Multikey.generate();
  const did = `did:key:${key.publicKeyMultibase}`;
  Object.assign(key, { id: `${did}#${key.publicKeyMultibase}`, controller: did });
  return { did, signer: key.signer(), documentLoader };
}

export async function suiteFor(signer: unknown) {
  const { DataIntegrityProof } = await import("@digitalbazaar/data-integrity");
  const { cryptosuite } = await import("@digitalbazaar/eddsa-rdfc-2022-cryptosuite");
  return new DataIntegrityProof({ signer, cryptosuite });
}
