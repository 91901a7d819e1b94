// Proof sets and proof chains (VC Data Integrity 1.0 §4.4), through the whole verifier: every proof of
// a set must verify (the library alone accepts a set when any one does), a chain's proof covers the
// proofs it names, and a previousProof that names nothing, or a link that does not verify, is refused.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import jsigs from "jsonld-signatures";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("proof-set", {
  PUBLIC_URL: "http://localhost:4557",
  APP_SECRET: "proof-set-test-secret-0123456789abcdef",
  // A local host stands in for another issuer's: the test then sees whether anything asked it.
  WEBHOOK_ALLOW_PRIVATE: "1",
});

let requests = 0;
let host: http.Server;
let hostDid: string;
beforeAll(async () => {
  host = http.createServer((_req, res) => {
    requests++;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostDid = `did:web:127.0.0.1%3A${(host.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

const { createDocumentLoader } = await import("../verifiable/document-loader");
const { resolveIssuerDid } = await import("./did-resolution");
const { verifyCredentialDocument } = await import("./verify-document");
const { MAX_PROOFS } = await import("./proof-shape");

const loader = createDocumentLoader({
  resolveDid: async (did) => {
    const resolved = await resolveIssuerDid(did);
    return resolved.ok ? resolved.document : null;
  },
});

type Key = { did: string; signer: unknown };
async function didKey(): Promise<Key> {
  const key = await Ed25519Multikey.generate();
  const did = `did:key:${key.publicKeyMultibase}`;
  Object.assign(key, { id: `${did}#${key.publicKeyMultibase}`, controller: did });
  return { did, signer: key.signer() };
}

const credentialOf = (issuer: Key) => ({
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  id: "urn:uuid:5d7e0c1e-0f2b-4d0b-9a41-6c1c0b7f3a10",
  type: ["VerifiableCredential"],
  issuer: issuer.did,
  validFrom: "2024-01-01T00:00:00Z",
  credentialSubject: { id: "did:example:holder", name: "Ada Lovelace" },
});

type Proof = Record<string, unknown>;

/** One proof by `key` over `document` as given (its `proof`, if any, is covered: a chain's link). */
async function proofOver(document: Record<string, unknown>, key: Key, template: Proof = {}): Promise<Proof> {
  const suite = new DataIntegrityProof({ signer: key.signer, cryptosuite: eddsaRdfc2022 }) as unknown as {
    proof?: Proof;
    createProof(options: object): Promise<Proof>;
  };
  suite.proof = template;
  return suite.createProof({
    document: structuredClone(document),
    purpose: new jsigs.purposes.AssertionProofPurpose(),
    proofSet: [],
    documentLoader: loader,
  });
}

const verify = (document: object) => verifyCredentialDocument({ kind: "json", json: JSON.stringify(document) });
type Report = { checks: { id: string; outcome: string; summary: string; detail: string | null }[] };
const signature = (report: Report) => report.checks.find((c) => c.id === "signature");
/** A malformed proof set is a data-model error of the format check, never tampering. */
const malformed = (report: Report & { verdict: string }, words: string) => {
  expect(report.verdict).toBe("invalid");
  expect(report.checks.find((c) => c.id === "format")).toMatchObject({
    outcome: "failed",
    summary: expect.stringContaining("proofs are malformed"),
  });
  expect(report.checks.find((c) => c.id === "format")?.detail).toContain(words);
  expect(signature(report)?.outcome).not.toBe("failed");
};

describe("a proof set: every proof must verify", () => {
  it("the issuer's proof and a countersignature by another did:key: valid", async () => {
    const issuer = await didKey();
    const notary = await didKey();
    const unsecured = credentialOf(issuer);
    const document = { ...unsecured, proof: [await proofOver(unsecured, issuer), await proofOver(unsecured, notary)] };
    expect((await verify(document)).verdict).toBe("valid");
  });

  it("a valid proof beside a forged one: not valid, naming the forged proof", async () => {
    const issuer = await didKey();
    const signed = await vc.issue({
      credential: credentialOf(issuer),
      suite: new DataIntegrityProof({ signer: issuer.signer, cryptosuite: eddsaRdfc2022 }),
      documentLoader: loader,
    });
    const proof = signed.proof as Proof;
    const forged = { ...proof, proofValue: `${String(proof.proofValue).slice(0, -6)}zzzzzz` };
    const report = await verify({ ...signed, proof: [proof, forged] });
    expect(report.verdict).toBe("invalid");
    expect(signature(report)).toMatchObject({ outcome: "failed", detail: expect.stringContaining("proof 2") });
  });

  it("a set without any proof by the issuer: not valid", async () => {
    const issuer = await didKey();
    const stranger = await didKey();
    const unsecured = credentialOf(issuer);
    const report = await verify({ ...unsecured, proof: [await proofOver(unsecured, stranger), await proofOver(unsecured, stranger)] });
    expect(report.verdict).toBe("invalid");
  });

  it(`more than ${MAX_PROOFS} proofs: not valid, and no proof is checked (a data-model error)`, async () => {
    const issuer = await didKey();
    const unsecured = credentialOf(issuer);
    const proof = await proofOver(unsecured, issuer);
    malformed(await verify({ ...unsecured, proof: Array.from({ length: MAX_PROOFS + 1 }, () => proof) }), `at most ${MAX_PROOFS}`);
  });
});

describe("what a proof set cannot slip past", () => {
  it("a second proof by the issuer's key for authentication, not issuance: not valid", async () => {
    const issuer = await didKey();
    const unsecured = credentialOf(issuer);
    const issuance = await proofOver(unsecured, issuer);
    const login = { ...(await proofOver(unsecured, issuer)), proofPurpose: "authentication" };
    const report = await verify({ ...unsecured, proof: [issuance, login] });
    expect(report.verdict).toBe("invalid");
    expect(signature(report)?.detail).toContain('not "assertionMethod"');
  });

  it("a countersignature by a did:web key: could not be verified, and nothing is fetched", async () => {
    const issuer = await didKey();
    const unsecured = credentialOf(issuer);
    const foreign = { ...(await proofOver(unsecured, issuer)), verificationMethod: `${hostDid}#key-1` };
    requests = 0;
    const report = await verify({ ...unsecured, proof: [await proofOver(unsecured, issuer), foreign] });
    expect(report.verdict).toBe("unverifiable");
    expect(signature(report)).toMatchObject({ outcome: "failed", detail: expect.stringContaining("only the issuer's key and did:key") });
    expect(requests).toBe(0);
  });

  it("a countersignature of a kind this verifier does not read: could not be verified, not 'changed'", async () => {
    const issuer = await didKey();
    const unsecured = credentialOf(issuer);
    const other = { ...(await proofOver(unsecured, issuer)), cryptosuite: "ecdsa-sd-2023" };
    const report = await verify({ ...unsecured, proof: [await proofOver(unsecured, issuer), other] });
    expect(report.verdict).toBe("unverifiable");
  });

  it("two proofs with one id, or previousProof links in a circle: a data-model error", async () => {
    const issuer = await didKey();
    const unsecured = credentialOf(issuer);
    const a = await proofOver(unsecured, issuer, { id: "urn:uuid:a" });
    malformed(await verify({ ...unsecured, proof: [a, a] }), 'two proofs have the id "urn:uuid:a"');
    const first = await proofOver(unsecured, issuer, { id: "urn:uuid:1", previousProof: "urn:uuid:2" });
    const second = await proofOver(unsecured, issuer, { id: "urn:uuid:2", previousProof: "urn:uuid:1" });
    malformed(await verify({ ...unsecured, proof: [first, second] }), "in a circle");
  });
});

describe("a proof chain: a proof covers the proofs it names in previousProof", () => {
  async function chain() {
    const issuer = await didKey();
    const first = await didKey();
    const unsecured = credentialOf(issuer);
    const link = await proofOver(unsecured, first, { id: "urn:uuid:26329423-bec9-4b2e-88cb-a7c7d9dc4544" });
    const last = await proofOver({ ...unsecured, proof: link }, issuer, { previousProof: link.id });
    return { unsecured, link, last, issuer, first };
  }

  it("a string previousProof, and the same as a list: valid", async () => {
    const { unsecured, link, last } = await chain();
    expect((await verify({ ...unsecured, proof: [link, last] })).verdict).toBe("valid");
    const { unsecured: u2, link: l2, issuer } = await chain();
    const listed = await proofOver({ ...u2, proof: l2 }, issuer, { previousProof: [l2.id] });
    expect((await verify({ ...u2, proof: [l2, listed] })).verdict).toBe("valid");
  });

  it("the chained proof checked as if alone (over the bare document) does not verify", async () => {
    const { unsecured, link, issuer } = await chain();
    // Signed over the document without the previous proof, but claiming to follow it.
    const unchained = await proofOver(unsecured, issuer, { previousProof: link.id });
    const report = await verify({ ...unsecured, proof: [link, unchained] });
    expect(report.verdict).toBe("invalid");
  });

  it("a previousProof that names no proof of the document: a data-model error naming it", async () => {
    const { unsecured, link, issuer } = await chain();
    const dangling = await proofOver({ ...unsecured, proof: link }, issuer, { previousProof: "urn:uuid:test:missing:proof" });
    malformed(await verify({ ...unsecured, proof: [link, dangling] }), "urn:uuid:test:missing:proof");
    malformed(await verify({ ...unsecured, proof: dangling }), "urn:uuid:test:missing:proof");
  });

  it("a chain whose earlier link was changed: not valid", async () => {
    const { unsecured, link, last } = await chain();
    const changed = { ...link, created: "2020-01-01T00:00:00Z" };
    expect((await verify({ ...unsecured, proof: [changed, last] })).verdict).toBe("invalid");
  });

  it("a previousProof that is not a string: a data-model error", async () => {
    const { unsecured, link, issuer } = await chain();
    const odd = await proofOver({ ...unsecured, proof: link }, issuer, { previousProof: 42 as unknown as string });
    malformed(await verify({ ...unsecured, proof: [link, odd] }), '"previousProof" must be a string');
  });
});
