import { afterEach, describe, expect, it, vi } from "vitest";
import { createDocumentLoader, DocumentLoadError } from "./document-loader";
import { OPEN_BADGES_V3_CONTEXT, VC_V2_CONTEXT } from "./contexts";
import { signDocument, verifyDocumentProof } from "./signing";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";

afterEach(() => vi.restoreAllMocks());

function refuseNetwork() {
  return vi.spyOn(globalThis, "fetch").mockImplementation(() => {
    throw new Error("the loader must never fetch");
  });
}

describe("the static document loader", () => {
  it("answers the bundled contexts from memory", async () => {
    const fetchSpy = refuseNetwork();
    const load = createDocumentLoader();
    for (const url of [
      VC_V2_CONTEXT,
      OPEN_BADGES_V3_CONTEXT,
      "https://www.w3.org/ns/did/v1",
      "https://w3id.org/security/multikey/v1",
      "https://w3id.org/security/data-integrity/v2",
    ]) {
      const result = await load(url);
      expect(result.documentUrl).toBe(url);
      expect(result.document).toHaveProperty("@context");
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("refuses any other URL with a clear error and no network", async () => {
    const fetchSpy = refuseNetwork();
    const load = createDocumentLoader();
    for (const url of ["https://example.com/context.json", "https://www.w3.org/2018/credentials/examples/v1", "http://localhost:1/x"]) {
      await expect(load(url)).rejects.toThrow(DocumentLoadError);
      await expect(load(url)).rejects.toThrow(/is not a bundled JSON-LD context, and contexts are never fetched from the network/);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("resolves DIDs only through the resolver it is given, and hands out a verification method in its document's context", async () => {
    const did = "did:web:example.com:organizations:acme";
    const doc = {
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
      id: did,
      verificationMethod: [{ id: `${did}#k1`, type: "Multikey", controller: did, publicKeyMultibase: "z6Mk" }],
    };
    await expect(createDocumentLoader()(did)).rejects.toThrow(/DIDs are not resolved here/);
    const load = createDocumentLoader({ resolveDid: async (d) => (d === did ? doc : null) });
    expect((await load(did)).document).toEqual(doc);
    expect((await load(`${did}#k1`)).document).toEqual({ "@context": doc["@context"], ...doc.verificationMethod[0] });
    await expect(load(`${did}#k2`)).rejects.toThrow(/no such verification method/);
    await expect(load("did:web:other.example")).rejects.toThrow(/could not be resolved/);
  });

  it("a credential naming an unknown context cannot be signed or verified: the error names the context", async () => {
    const fetchSpy = refuseNetwork();
    const did = "did:web:example.com:o";
    const pair = await Ed25519Multikey.generate({ id: `${did}#k1`, controller: did });
    const load = createDocumentLoader();
    const credential = {
      "@context": [VC_V2_CONTEXT, "https://evil.example/context.json"],
      type: ["VerifiableCredential"],
      issuer: did,
      credentialSubject: { id: "urn:x" },
    };
    await expect(signDocument(credential, pair.signer() as never, load)).rejects.toThrow(/evil\.example/);
    const check = await verifyDocumentProof(
      {
        ...credential,
        proof: {
          type: "DataIntegrityProof",
          cryptosuite: "eddsa-rdfc-2022",
          proofPurpose: "assertionMethod",
          verificationMethod: `${did}#k1`,
          proofValue: "z1",
        },
      },
      load,
    );
    expect(check.verified).toBe(false);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
