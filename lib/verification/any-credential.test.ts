// The verifier on credentials of other issuers (did:key, VC 1.1, the three proof suites, presentations,
// PDFs) and the defects found by crafted invalid credentials, each reproduced here: a failed or unread
// status check never gives "valid", every status entry counts, and a data-model error is named as such,
// never as tampering. Status lists are served by a local HTTP server reached through lib/net (with the
// private-address test switch), like another issuer's host.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as EcdsaMultikey from "@digitalbazaar/ecdsa-multikey";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { cryptosuite as ecdsaRdfc2019 } from "@digitalbazaar/ecdsa-rdfc-2019-cryptosuite";
import { Ed25519Signature2020 } from "@digitalbazaar/ed25519-signature-2020";
import * as vc from "@digitalbazaar/vc";
import { PDFDocument } from "pdf-lib";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("any-credential", {
  PUBLIC_URL: "http://localhost:4556",
  APP_SECRET: "any-credential-test-secret-0123456789abcdef",
  WEBHOOK_ALLOW_PRIVATE: "1",
});

const { createDocumentLoader } = await import("../verifiable/document-loader");
const { encodeRevocationList } = await import("../verifiable/status-list");
const { resolveIssuerDid } = await import("./did-resolution");
const { verifyCredentialDocument } = await import("./verify-document");

const served: Record<string, string> = {};
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = served[req.url ?? ""];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loader = createDocumentLoader({
  resolveDid: async (did) => {
    const resolved = await resolveIssuerDid(did);
    return resolved.ok ? resolved.document : null;
  },
});

type Signer = { id: string; algorithm: string; sign: (input: { data: Uint8Array }) => Promise<Uint8Array> };
type Issuer = { did: string; signer: Signer };

async function ed25519Issuer(): Promise<Issuer> {
  const key = await Ed25519Multikey.generate();
  const did = `did:key:${key.publicKeyMultibase}`;
  Object.assign(key, { id: `${did}#${key.publicKeyMultibase}`, controller: did });
  return { did, signer: key.signer() as Signer };
}

async function p256Issuer(): Promise<Issuer> {
  const key = await EcdsaMultikey.generate({ curve: "P-256" });
  const did = `did:key:${key.publicKeyMultibase}`;
  Object.assign(key, { id: `${did}#${key.publicKeyMultibase}`, controller: did });
  return { did, signer: key.signer() };
}

const eddsa = (issuer: Issuer) => new DataIntegrityProof({ signer: issuer.signer, cryptosuite: eddsaRdfc2022 });

async function sign(credential: object, suite: unknown) {
  return vc.issue({ credential: structuredClone(credential), suite, documentLoader: loader });
}

let listCount = 0;
/** Serves a signed BitstringStatusListCredential and returns its URL. */
async function statusList(
  issuer: Issuer,
  options: { purpose?: string | string[]; set?: number[]; length?: number; validUntil?: string } = {},
): Promise<string> {
  const path = `/lists/${++listCount}`;
  const url = `${base}${path}`;
  const list = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    id: url,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: issuer.did,
    validFrom: "2024-01-01T00:00:00Z",
    ...(options.validUntil ? { validUntil: options.validUntil } : {}),
    credentialSubject: {
      id: `${url}#list`,
      type: "BitstringStatusList",
      statusPurpose: options.purpose ?? "revocation",
      encodedList: await encodeRevocationList(options.length ?? 131_072, options.set ?? []),
    },
  };
  // Signed as of its validFrom, so that an already expired list can be signed at all.
  const suite = new DataIntegrityProof({ signer: issuer.signer, cryptosuite: eddsaRdfc2022, date: "2024-01-01T00:00:00Z" });
  served[path] = JSON.stringify(await vc.issue({ credential: list, suite, documentLoader: loader, now: "2024-01-02T00:00:00Z" }));
  return url;
}

const entry = (listUrl: string, index: number, purpose = "revocation") => ({
  id: `${listUrl}#${index}-${purpose}`,
  type: "BitstringStatusListEntry",
  statusPurpose: purpose,
  statusListIndex: String(index),
  statusListCredential: listUrl,
});

const credentialOf = (issuer: Issuer, extra: Record<string, unknown> = {}) => ({
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  id: "urn:uuid:2f3c0a6e-6a52-4c5e-9a0d-1f1fb0c1a001",
  type: ["VerifiableCredential"],
  issuer: issuer.did,
  validFrom: "2024-01-01T00:00:00Z",
  credentialSubject: { id: "did:example:holder", name: "Ada Lovelace" },
  ...extra,
});

const verifyJson = (document: object, options = {}) => verifyCredentialDocument({ kind: "json", json: JSON.stringify(document) }, options);
const outcome = (report: { checks: { id: string; outcome: string }[] }, id: string) => report.checks.find((c) => c.id === id)!.outcome;

describe("credentials of any issuer", () => {
  it("a did:key issuer signing VC 2.0 with eddsa-rdfc-2022 is valid, with a warning that a bare key names no one", async () => {
    const issuer = await ed25519Issuer();
    const report = await verifyJson(await sign(credentialOf(issuer), eddsa(issuer)));
    expect(report.verdict).toBe("valid");
    expect(outcome(report, "signature")).toBe("passed");
    expect(outcome(report, "issuer")).toBe("warning");
    expect(report.checks[0]!.summary).toContain("data model 2.0");
  });

  it("ecdsa-rdfc-2019 with a P-256 did:key is valid", async () => {
    const issuer = await p256Issuer();
    const suite = new DataIntegrityProof({ signer: issuer.signer, cryptosuite: ecdsaRdfc2019 });
    expect((await verifyJson(await sign(credentialOf(issuer), suite))).verdict).toBe("valid");
  });

  it("a VC 1.1 credential with an Ed25519Signature2020 proof is valid; changed, it is not", async () => {
    const issuer = await ed25519Issuer();
    const credential = {
      "@context": ["https://www.w3.org/2018/credentials/v1", "https://w3id.org/security/suites/ed25519-2020/v1"],
      id: "urn:uuid:2f3c0a6e-6a52-4c5e-9a0d-1f1fb0c1a002",
      type: ["VerifiableCredential"],
      issuer: issuer.did,
      issuanceDate: "2024-01-01T00:00:00Z",
      credentialSubject: { id: "did:example:holder" },
    };
    const signed = await sign(credential, new Ed25519Signature2020({ signer: issuer.signer }));
    const report = await verifyJson(signed);
    expect(report.verdict).toBe("valid");
    expect(report.checks[0]!.summary).toContain("data model 1.1");
    const changed = await verifyJson({ ...signed, credentialSubject: { id: "did:example:mallory" } });
    expect(changed.verdict).toBe("invalid");
    expect(outcome(changed, "signature")).toBe("failed");
  });

  it("a presentation signed by its holder is verified with each credential; a changed one is not valid", async () => {
    const issuer = await ed25519Issuer();
    const holder = await ed25519Issuer();
    const credential = await sign(credentialOf(issuer), eddsa(issuer));
    const presentation = vc.createPresentation({ verifiableCredential: [credential], holder: holder.did });
    const signed = await vc.signPresentation({ presentation, suite: eddsa(holder), challenge: "abc123", documentLoader: loader });
    const report = await verifyJson(signed, { challenge: "abc123" });
    expect(report.verdict).toBe("valid");
    expect(report.credentials).toHaveLength(1);
    expect(report.credentials![0]!.verdict).toBe("valid");
    expect(outcome(report, "signature")).toBe("passed");

    const wrongChallenge = await verifyJson(signed, { challenge: "other" });
    expect(wrongChallenge.verdict).toBe("invalid");
    const changed = await verifyJson({ ...signed, holder: issuer.did });
    expect(changed.verdict).toBe("invalid");
  });

  it("a presentation with a second, forged proof beside its holder's: could not be verified, never valid", async () => {
    const issuer = await ed25519Issuer();
    const holder = await ed25519Issuer();
    const credential = await sign(credentialOf(issuer), eddsa(issuer));
    const presentation = vc.createPresentation({ verifiableCredential: [credential], holder: holder.did });
    const signed = await vc.signPresentation({ presentation, suite: eddsa(holder), challenge: "abc123", documentLoader: loader });
    const proof = signed.proof as Record<string, unknown>;
    const forged = { ...proof, proofValue: `${String(proof.proofValue).slice(0, -6)}zzzzzz` };
    const report = await verifyJson({ ...signed, proof: [proof, forged] }, { challenge: "abc123" });
    expect(report.verdict).toBe("unverifiable");
    expect(report.headline).toContain("several proofs");
    expect(report.credentials![0]!.verdict).toBe("valid");
  });
});

describe("status: every entry, every purpose, and no check that fails reads valid", () => {
  it("a list published by another issuer is a failed check: not valid", async () => {
    const issuer = await ed25519Issuer();
    const stranger = await ed25519Issuer();
    const listUrl = await statusList(stranger);
    const report = await verifyJson(await sign(credentialOf(issuer, { credentialStatus: entry(listUrl, 5) }), eddsa(issuer)));
    expect(report.verdict).toBe("invalid");
    expect(report.checks.find((c) => c.id === "status")).toMatchObject({
      outcome: "failed",
      summary: expect.stringContaining("not published by its issuer"),
    });
  });

  it("with two entries, the second one revoked: revoked", async () => {
    const issuer = await ed25519Issuer();
    const first = await statusList(issuer);
    const second = await statusList(issuer, { set: [9] });
    const signed = await sign(credentialOf(issuer, { credentialStatus: [entry(first, 9), entry(second, 9)] }), eddsa(issuer));
    expect((await verifyJson(signed)).verdict).toBe("revoked");
  });

  it("a set suspension bit beside an unset revocation bit: suspended", async () => {
    const issuer = await ed25519Issuer();
    const revocation = await statusList(issuer);
    const suspension = await statusList(issuer, { purpose: "suspension", set: [4] });
    const signed = await sign(
      credentialOf(issuer, { credentialStatus: [entry(revocation, 4), entry(suspension, 4, "suspension")] }),
      eddsa(issuer),
    );
    const report = await verifyJson(signed);
    expect(report.verdict).toBe("suspended");
    expect(report.headline).toMatch(/^Suspended/);
  });

  it("a list with several purposes is read for each", async () => {
    const issuer = await ed25519Issuer();
    const listUrl = await statusList(issuer, { purpose: ["revocation", "suspension"], set: [2] });
    const clean = await sign(
      credentialOf(issuer, { credentialStatus: [entry(listUrl, 3), entry(listUrl, 3, "suspension")] }),
      eddsa(issuer),
    );
    const report = await verifyJson(clean);
    expect(report.verdict).toBe("valid");
    expect(report.checks.find((c) => c.id === "status")!.summary).toBe("The issuer has neither revoked nor suspended the credential.");
    const revoked = await sign(credentialOf(issuer, { credentialStatus: entry(listUrl, 2) }), eddsa(issuer));
    expect((await verifyJson(revoked)).verdict).toBe("revoked");
  });

  it("a list shorter than 131,072 entries is refused: could not be verified", async () => {
    const issuer = await ed25519Issuer();
    const listUrl = await statusList(issuer, { length: 8 * 1024 });
    const report = await verifyJson(await sign(credentialOf(issuer, { credentialStatus: entry(listUrl, 1) }), eddsa(issuer)));
    expect(report.verdict).toBe("unverifiable");
    expect(report.checks.find((c) => c.id === "status")!.summary).toContain("too short");
  });

  it("an expired status list is not relied on: could not be verified", async () => {
    const issuer = await ed25519Issuer();
    const listUrl = await statusList(issuer, { validUntil: "2024-06-01T00:00:00Z" });
    const report = await verifyJson(await sign(credentialOf(issuer, { credentialStatus: entry(listUrl, 1) }), eddsa(issuer)));
    expect(report.verdict).toBe("unverifiable");
    expect(report.checks.find((c) => c.id === "status")!.summary).toContain("expired");
  });

  it("a list changed after it was verified once is checked again, not trusted from before", async () => {
    const issuer = await ed25519Issuer();
    const listUrl = await statusList(issuer);
    const signed = await sign(credentialOf(issuer, { credentialStatus: entry(listUrl, 6) }), eddsa(issuer));
    expect((await verifyJson(signed)).verdict).toBe("valid");
    const path = new URL(listUrl).pathname;
    const list = JSON.parse(served[path]!);
    list.credentialSubject.encodedList = await encodeRevocationList(131_072, [6]);
    served[path] = JSON.stringify(list);
    const report = await verifyJson(signed);
    expect(report.verdict).toBe("unverifiable");
    expect(report.checks.find((c) => c.id === "status")!.summary).toContain("not correctly signed");
  });

  it("a status entry of a type this verifier does not read leaves it unverifiable, never valid", async () => {
    const issuer = await ed25519Issuer();
    const status = { id: "https://status.example/1#1", type: "https://status.example/ns#ExampleStatusEntry" };
    const report = await verifyJson(await sign(credentialOf(issuer, { credentialStatus: status }), eddsa(issuer)));
    expect(report.verdict).toBe("unverifiable");
  });
});

describe("data-model errors are named as such, never as tampering", () => {
  const cases: [string, (c: Record<string, unknown>) => void, RegExp][] = [
    ["an empty credentialSubject", (c) => (c.credentialSubject = {}), /credentialSubject/],
    ["a typeless evidence", (c) => (c.evidence = [{ id: "https://evidence.example/1" }]), /evidence/],
    ["a typeless termsOfUse", (c) => (c.termsOfUse = { id: "https://terms.example/1" }), /termsOfUse/],
    ["a typeless credentialSchema", (c) => (c.credentialSchema = { id: "https://schema.example/1" }), /credentialSchema/],
    ["an unreadable validFrom", (c) => (c.validFrom = "next Tuesday"), /validFrom/],
    ["validFrom without a time zone", (c) => (c.validFrom = "2024-01-01T00:00:00"), /validFrom.*time zone/],
    ["validUntil before validFrom", (c) => (c.validUntil = "2023-01-01T00:00:00Z"), /validUntil must not be before validFrom/],
    ["a number as name", (c) => (c.name = 42), /name must be text/],
  ];
  for (const [what, change, reason] of cases) {
    it(what, async () => {
      const issuer = await ed25519Issuer();
      const signed = await sign(credentialOf(issuer), eddsa(issuer));
      change(signed);
      const report = await verifyJson(signed);
      expect(report.verdict).toBe("invalid");
      expect(report.checks[0]).toMatchObject({ id: "format", outcome: "failed" });
      expect(report.checks[0]!.summary).toMatch(/breaks the Verifiable Credentials data model/);
      expect(report.checks[0]!.summary).toMatch(reason);
      expect(report.checks[0]!.summary, "one full stop, whatever the library's message ends with").not.toMatch(/\.\.$/);
      expect(report.headline).not.toContain("changed after it was signed");
      expect(outcome(report, "signature")).toBe("skipped");
    });
  }
});

describe("a PDF carrying the credential", () => {
  async function pdfWith(attachment?: { name: string; bytes: Uint8Array }): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 100]);
    if (attachment)
      await pdf.attach(attachment.bytes, attachment.name, { mimeType: "application/json", description: "The signed credential" });
    return pdf.save();
  }

  it("an embedded credential.json is verified", async () => {
    const issuer = await ed25519Issuer();
    const signed = await sign(credentialOf(issuer), eddsa(issuer));
    const bytes = await pdfWith({ name: "credential.json", bytes: Buffer.from(JSON.stringify(signed)) });
    expect((await verifyCredentialDocument({ kind: "pdf", bytes })).verdict).toBe("valid");
  });

  it("a PDF without one says so plainly; another attachment does not count", async () => {
    for (const bytes of [await pdfWith(), await pdfWith({ name: "notes.json", bytes: Buffer.from("{}") })]) {
      const report = await verifyCredentialDocument({ kind: "pdf", bytes });
      expect(report.verdict).toBe("unverifiable");
      expect(report.headline).toBe("Could not be verified: There is no credential inside this PDF.");
    }
  });

  it("a damaged PDF and a file that is not a PDF get a verdict with the reason", async () => {
    const good = await pdfWith();
    const damaged = await verifyCredentialDocument({ kind: "pdf", bytes: good.slice(0, 40) });
    expect(damaged.verdict).toBe("unverifiable");
    expect(damaged.headline).toContain("damaged");
    const notPdf = await verifyCredentialDocument({ kind: "pdf", bytes: Buffer.from("GIF89a") });
    expect(notPdf.headline).toContain("not a PDF");
  });
});

describe("signatures found valid are remembered, and only under the same bytes and keys", () => {
  it("a credential verified before still reads as changed once a character changes, and valid again when restored", async () => {
    const issuer = await ed25519Issuer();
    const signed = await sign(credentialOf(issuer), eddsa(issuer));
    expect((await verifyJson(signed)).verdict).toBe("valid");
    expect((await verifyJson(signed)).verdict).toBe("valid");
    const tampered = structuredClone(signed);
    (tampered.credentialSubject as { name: string }).name += "x";
    const report = await verifyJson(tampered);
    expect(report.verdict).toBe("invalid");
    expect(outcome(report, "signature")).toBe("failed");
    expect((await verifyJson(signed)).verdict).toBe("valid");
  });

  it("a proof verified under one DID document is checked again under another (a key rotated away)", async () => {
    const { verifyProof } = await import("./signature-check");
    const issuer = await ed25519Issuer();
    const signed = await sign(credentialOf(issuer), eddsa(issuer));
    const resolved = await resolveIssuerDid(issuer.did);
    if (!resolved.ok) throw new Error("did:key did not resolve");
    expect(await verifyProof(signed, resolved.document)).toEqual({ verified: true });
    const other = await resolveIssuerDid((await ed25519Issuer()).did);
    if (!other.ok) throw new Error("did:key did not resolve");
    const withoutTheKey = { ...other.document, id: resolved.document.id };
    expect((await verifyProof(signed, withoutTheKey)).verified).toBe(false);
  });

  it("a proof with its own expiry is never remembered", async () => {
    const { proofMemoKey } = await import("./proof-memo");
    expect(proofMemoKey({ proof: [{ type: "DataIntegrityProof" }] }, {})).not.toBeNull();
    expect(proofMemoKey({ proof: [{ type: "DataIntegrityProof", expires: "2030-01-01T00:00:00Z" }] }, {})).toBeNull();
    expect(proofMemoKey({ proof: { type: "DataIntegrityProof", expires: "2030-01-01T00:00:00Z" } }, {})).toBeNull();
  });
});
