// The linked domain (DIF Well-Known DID Configuration) of another issuer: a did:web DID on a local
// HTTP server (reached through lib/net with the private-address test switch) whose host serves
// /.well-known/did-configuration.json. Only a linkage credential signed by that DID, for that origin,
// in date, links the domain.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("linked-domain", {
  PUBLIC_URL: "http://localhost:4557",
  APP_SECRET: "linked-domain-test-secret-0123456789abcdef",
  WEBHOOK_ALLOW_PRIVATE: "1",
});

const { createDocumentLoader } = await import("../verifiable/document-loader");
const { signDocument } = await import("../verifiable/signing");
const { linkedDomainOf } = await import("./linked-domain");
const { verifyCredentialDocument } = await import("./verify-document");

const served: Record<string, string> = {};
let server: http.Server;
let origin: string;
let did: string;
let didDocument: { id: string; [key: string]: unknown };
let key: Awaited<ReturnType<typeof Ed25519Multikey.generate>>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = served[req.url ?? ""];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  did = `did:web:127.0.0.1%3A${port}:issuers:linked`;
  key = await Ed25519Multikey.generate({ id: `${did}#key-1`, controller: did });
  didDocument = {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: did,
    verificationMethod: [{ id: `${did}#key-1`, type: "Multikey", controller: did, publicKeyMultibase: key.publicKeyMultibase }],
    assertionMethod: [`${did}#key-1`],
  };
  served["/issuers/linked/did.json"] = JSON.stringify(didDocument);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loader = () => createDocumentLoader({ resolveDid: async (d) => (d === did ? didDocument : null) });

async function publishLinkage(changes: { origin?: string; expirationDate?: string; tamper?: boolean } = {}) {
  const credential = {
    "@context": [
      "https://www.w3.org/2018/credentials/v1",
      "https://identity.foundation/.well-known/did-configuration/v1",
      "https://w3id.org/security/data-integrity/v2",
    ],
    type: ["VerifiableCredential", "DomainLinkageCredential"],
    issuer: did,
    issuanceDate: "2024-01-01T00:00:00Z",
    expirationDate: changes.expirationDate ?? "2099-01-01T00:00:00Z",
    credentialSubject: { id: did, origin: changes.origin ?? origin },
  };
  const signed = (await signDocument(credential, key.signer() as never, loader())) as Record<string, any>;
  if (changes.tamper) signed.credentialSubject.origin = `${origin}/`;
  served["/.well-known/did-configuration.json"] = JSON.stringify({
    "@context": "https://identity.foundation/.well-known/did-configuration/v1",
    linked_dids: [signed],
  });
}

describe("linkedDomainOf", () => {
  it("a linkage credential signed by the DID for the origin links the domain", async () => {
    await publishLinkage();
    expect(await linkedDomainOf(did, didDocument as never)).toBe("127.0.0.1");
  });

  it("another origin, an expired credential or one without its file link nothing", async () => {
    await publishLinkage({ origin: "https://elsewhere.example" });
    expect(await linkedDomainOf(did, didDocument as never)).toBeNull();
    await publishLinkage({ expirationDate: "2024-06-01T00:00:00Z" });
    expect(await linkedDomainOf(did, didDocument as never)).toBeNull();
    delete served["/.well-known/did-configuration.json"];
    expect(await linkedDomainOf(did, didDocument as never)).toBeNull();
  });

  it("a linkage credential signed by another key links nothing", async () => {
    const other = await Ed25519Multikey.generate({ id: `${did}#key-1`, controller: did });
    const saved = key;
    key = other;
    try {
      await publishLinkage();
    } finally {
      key = saved;
    }
    expect(await linkedDomainOf(did, didDocument as never)).toBeNull();
  });

  it("the verifier reports the linked domain of the issuer of a valid credential", async () => {
    await publishLinkage();
    const credential = await signDocument(
      {
        "@context": ["https://www.w3.org/ns/credentials/v2"],
        type: ["VerifiableCredential"],
        issuer: { id: did, name: "Linked University" },
        validFrom: "2024-01-01T00:00:00Z",
        credentialSubject: { id: "did:example:holder", name: "Ada Lovelace" },
      },
      key.signer() as never,
      loader(),
    );
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(credential) });
    expect(report.verdict).toBe("valid");
    expect(report.facts.issuerVerifiedDomain).toBe("127.0.0.1");
    expect(report.checks.find((c) => c.id === "issuer")!.summary).toContain("127.0.0.1 links itself to this issuer");
  });
});
