// verifyCredentialDocument on real signed credentials of a scratch database, and on documents of
// another issuer (a did:web on a local HTTP server, reached through lib/net with the private-address
// test switch): every bad input gets a verdict with its reason, never an exception or a context fetch.
import http from "node:http";
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { MAX_JSON_DEPTH } from "../core/json-text";

await scratchDatabase("verification", {
  PUBLIC_URL: "http://localhost:4555",
  APP_SECRET: "verification-test-secret-0123456789abcdef",
  WEBHOOK_ALLOW_PRIVATE: "1",
});

const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { publicOpenBadgeCredential } = await import("../verifiable/service");
const { signDocument } = await import("../verifiable/signing");
const { createDocumentLoader } = await import("../verifiable/document-loader");
const { encodeRevocationList, buildStatusListCredential } = await import("../verifiable/status-list");
const { verifyCredentialDocument } = await import("./verify-document");
const { bakeCredentialIntoPng } = await import("./png-baking");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;
let n = 0;

beforeAll(async () => {
  org = await createOrganization({ slug: "verify-org", name: "Verify Academy", plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  groupId = (await createGroup(org.id, { name: "Course", designIds: [design.id] })).id;
});

async function issuedDocument(options: { issueDate?: string; expiryDate?: string } = {}) {
  const credential = await credentials.createIssueCredential(org, {
    groupId,
    recipient: { name: `Person ${n}`, email: `p${n++}@example.com` },
    ...options,
  });
  const served = await publicOpenBadgeCredential(credential.publicId);
  return { credential, json: served!.json, doc: JSON.parse(served!.json) as Record<string, any> };
}

const outcomes = (report: { checks: { id: string; outcome: string }[] }) => Object.fromEntries(report.checks.map((c) => [c.id, c.outcome]));

// ---- another issuer: a did:web DID on a local HTTP server ----
type Served = Record<string, { status?: number; type?: string; body: string }>;
const served: Served = {};
let server: http.Server;
let otherHost: string;
let otherDid: string;
let otherKey: Awaited<ReturnType<typeof Ed25519Multikey.generate>>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const answer = served[req.url ?? ""];
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status ?? 200, { "Content-Type": answer.type ?? "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  otherHost = `127.0.0.1:${(server.address() as { port: number }).port}`;
  otherDid = `did:web:${otherHost.replace(":", "%3A")}:issuers:other`;
  otherKey = await Ed25519Multikey.generate({ id: `${otherDid}#key-1`, controller: otherDid });
  const didDocument = {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: otherDid,
    verificationMethod: [
      { id: `${otherDid}#key-1`, type: "Multikey", controller: otherDid, publicKeyMultibase: otherKey.publicKeyMultibase },
    ],
    assertionMethod: [`${otherDid}#key-1`],
  };
  served["/issuers/other/did.json"] = { body: JSON.stringify(didDocument) };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A loader for signing as the other issuer: its DID document is the one served above. */
const otherLoader = () =>
  createDocumentLoader({ resolveDid: async (did) => (did === otherDid ? JSON.parse(served["/issuers/other/did.json"]!.body) : null) });

async function otherIssuerDocument(changes: Record<string, unknown> = {}, statusList?: { encodedList?: string; revoked?: number[] }) {
  const { doc } = await issuedDocument();
  const { proof: _proof, ...unsigned } = doc;
  const listUrl = `http://${otherHost}/issuers/other/status/1`;
  if (statusList) {
    const encodedList = statusList.encodedList ?? (await encodeRevocationList(131_072, statusList.revoked ?? []));
    const list = buildStatusListCredential({ listUrl, issuerDid: otherDid, encodedList, validFrom: new Date() });
    served["/issuers/other/status/1"] = { body: JSON.stringify(await signDocument(list, otherKey.signer() as never, otherLoader())) };
  }
  const credential = {
    ...unsigned,
    id: `http://${otherHost}/credentials/1`,
    issuer: { id: otherDid, type: ["Profile"], name: "Other University" },
    credentialStatus: {
      id: `${listUrl}#7`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: "7",
      statusListCredential: listUrl,
    },
    ...changes,
  };
  return signDocument(credential, otherKey.signer() as never, otherLoader());
}

describe("credentials of this instance", () => {
  it("a freshly issued credential is valid; the checks all pass but the unverified issuer warns", async () => {
    const { json, credential } = await issuedDocument();
    const report = await verifyCredentialDocument({ kind: "json", json });
    expect(report.verdict).toBe("valid");
    expect(outcomes(report)).toEqual({ format: "passed", signature: "passed", issuer: "warning", status: "passed", validity: "passed" });
    expect(report.headline).toMatch(/^Valid: issued by Verify Academy to Person \d+ on /);
    expect(report.headline).toContain("identity is not verified");
    expect(report.facts).toMatchObject({
      recipientName: credential.recipient!.name,
      achievementName: "Course",
      issuerName: "Verify Academy",
    });
  });

  it("an issuer that proved its domain: the issuer check passes and the verdict names the domain; a same-named impostor stays a warning", async () => {
    const { db } = await import("../db");
    const real = await createOrganization({ slug: "demo-academy", name: "Demo Academy", plan: "premium" });
    const impostor = await createOrganization({ slug: "demo-academy-official", name: "Demo Academy", plan: "premium" });
    await db().domainClaim.create({
      data: { organizationId: real.id, domain: "demo.edu", token: "t".repeat(32), verifiedDomain: "demo.edu", verifiedAt: new Date() },
    });
    const documentOf = async (o: typeof real) => {
      const design = await createDesign(o, { name: "D", type: "certificate" });
      const group = await createGroup(o.id, { name: "Data Science", designIds: [design.id] });
      const credential = await credentials.createIssueCredential(o, { groupId: group.id, recipient: { name: "Ada Lovelace" } });
      return (await publicOpenBadgeCredential(credential.publicId))!.json;
    };
    const genuine = await verifyCredentialDocument({ kind: "json", json: await documentOf(real) });
    expect(genuine.headline).toMatch(/^Valid: issued by Demo Academy \(verified owner of demo\.edu\) to Ada Lovelace on /);
    expect(genuine.checks.find((c) => c.id === "issuer")).toMatchObject({
      outcome: "passed",
      summary: "Issued by Demo Academy, verified owner of demo.edu.",
    });
    expect(genuine.facts.issuerVerifiedDomain).toBe("demo.edu");
    const copy = await verifyCredentialDocument({ kind: "json", json: await documentOf(impostor) });
    expect(copy.headline).toMatch(/^Valid: issued by Demo Academy to Ada Lovelace on .*The issuer's identity is not verified\.$/);
    expect(copy.checks.find((c) => c.id === "issuer")!.outcome).toBe("warning");
    expect(copy.facts.issuerVerifiedDomain).toBeNull();
  });

  it("its wallet URL and its credential.json URL are resolved locally, without any network request", async () => {
    const { credential } = await issuedDocument();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const httpSpy = vi.spyOn(http, "request");
    try {
      for (const url of [
        `http://localhost:4555/credentials/${credential.publicId}`,
        `http://localhost:4555/credentials/${credential.publicId}/credential.json`,
      ]) {
        expect((await verifyCredentialDocument({ kind: "url", url })).verdict).toBe("valid");
      }
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(httpSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
      httpSpy.mockRestore();
    }
  });

  it("a private credential's address finds nothing, as its page answers a stranger, while its document still verifies", async () => {
    const { credential, json } = await issuedDocument();
    const { db } = await import("../db");
    await db().credential.update({ where: { id: credential.id }, data: { visibility: "private" } });
    for (const url of [
      `http://localhost:4555/credentials/${credential.publicId}`,
      `http://localhost:4555/credentials/${credential.publicId}/credential.json`,
    ]) {
      const report = await verifyCredentialDocument({ kind: "url", url });
      expect(report.verdict).not.toBe("valid");
      expect(JSON.stringify(report)).not.toContain(credential.recipient!.name);
    }
    expect((await verifyCredentialDocument({ kind: "json", json })).verdict).toBe("valid");
  });

  it("a changed field makes it invalid: the document was changed after it was signed", async () => {
    const { doc } = await issuedDocument();
    for (const tamper of [
      (d: any) => (d.credentialSubject.name = "Mallory"),
      (d: any) => (d.credentialSubject.achievement.name = "Doctor of Medicine"),
      (d: any) => (d.validFrom = "2020-01-01T00:00:00Z"),
      (d: any) => (d.issuer.name = "Harvard"),
    ]) {
      const copy = structuredClone(doc);
      tamper(copy);
      const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(copy) });
      expect(report.verdict).toBe("invalid");
      expect(report.headline).toBe("Not valid: the document was changed after it was signed.");
      expect(outcomes(report)).toMatchObject({
        format: "passed",
        issuer: expect.any(String),
        signature: "failed",
        status: "skipped",
        validity: "skipped",
      });
    }
  });

  it("a revoked credential answers revoked, with the date and the issuer's reason", async () => {
    const { credential, json } = await issuedDocument();
    await credentials.revokeCredential(org, credential.id, { reason: "Issued by mistake" });
    const report = await verifyCredentialDocument({ kind: "json", json });
    expect(report.verdict).toBe("revoked");
    expect(report.headline).toMatch(/^Revoked on \w+ \d+, \d{4}: Issued by mistake$/);
    expect(outcomes(report)).toMatchObject({ signature: "passed", status: "failed" });
    expect(report.facts.revocationReason).toBe("Issued by mistake");
  });

  it("an expired credential answers expired; before its issue date, not yet valid", async () => {
    const { json } = await issuedDocument({ issueDate: "2020-03-01", expiryDate: "2021-03-01" });
    const expired = await verifyCredentialDocument({ kind: "json", json });
    expect(expired.verdict).toBe("expired");
    expect(expired.headline).toMatch(/^Expired on March 1, 2021: issued by Verify Academy/);
    expect(outcomes(expired)).toMatchObject({ signature: "passed", validity: "failed" });

    const early = await verifyCredentialDocument({ kind: "json", json }, { now: new Date("2019-12-31T00:00:00Z") });
    expect(early.verdict).toBe("not yet valid");
    expect(early.headline).toMatch(/^Not yet valid: valid from March 1, 2020/);
  });

  it("a baked PNG carries a credential that verifies", async () => {
    const { json } = await issuedDocument();
    const png = bakeCredentialIntoPng(await tinyPng(), json);
    expect((await verifyCredentialDocument({ kind: "png", bytes: png })).verdict).toBe("valid");
  });
});

describe("bad input", () => {
  it("truncated JSON is invalid, saying it is not valid JSON", async () => {
    const { json } = await issuedDocument();
    const report = await verifyCredentialDocument({ kind: "json", json: json.slice(0, json.length / 2) });
    expect(report.verdict).toBe("invalid");
    expect(report.checks[0]).toMatchObject({ id: "format", outcome: "failed", summary: expect.stringContaining("not valid JSON") });
    expect(outcomes(report)).toMatchObject({ signature: "skipped", issuer: "skipped", status: "skipped", validity: "skipped" });
  });

  it("a 10 MB document is refused by its size before parsing", async () => {
    const big = JSON.stringify({ padding: "x".repeat(10 * 1024 * 1024) });
    const parse = vi.spyOn(JSON, "parse");
    try {
      const report = await verifyCredentialDocument({ kind: "json", json: big });
      expect(report.verdict).toBe("invalid");
      expect(report.checks[0]!.summary).toMatch(/too large .*at most 256 KiB/);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it("a signed credential with a member nested thousands of levels deep is invalid for its depth, never an unexpected error", async () => {
    const { doc } = await issuedDocument();
    for (const depth of [MAX_JSON_DEPTH, 5_000]) {
      doc.credentialSubject.notes = "PLACEHOLDER";
      const json = JSON.stringify(doc).replace('"PLACEHOLDER"', '{"a":'.repeat(depth) + "1" + "}".repeat(depth));
      const parse = vi.spyOn(JSON, "parse");
      try {
        const report = await verifyCredentialDocument({ kind: "json", json });
        expect(report.verdict).toBe("invalid");
        expect(report.checks[0]).toMatchObject({ id: "format", outcome: "failed", summary: expect.stringContaining("nested too deeply") });
        expect(report.checks[0]!.detail).toContain(`more than ${MAX_JSON_DEPTH} levels`);
        expect(parse).not.toHaveBeenCalledWith(json);
      } finally {
        parse.mockRestore();
      }
    }
  });

  it("an unknown context is refused by name, and nothing is fetched", async () => {
    const { doc } = await issuedDocument();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const httpSpy = vi.spyOn(http, "request");
    const httpsSpy = vi.spyOn(https, "request");
    try {
      const topLevel = { ...doc, "@context": [...doc["@context"], "https://contexts.example/evil.jsonld"] };
      const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(topLevel) });
      expect(report.verdict).toBe("invalid");
      expect(report.checks[0]).toMatchObject({
        outcome: "failed",
        summary: expect.stringContaining("does not know"),
        detail: expect.stringContaining("https://contexts.example/evil.jsonld"),
      });

      // A context reached only while canonicalizing (an embedded @import) fails the signature check, also without a fetch.
      const embedded = structuredClone(doc);
      embedded.credentialSubject["@context"] = "https://contexts.example/embedded.jsonld";
      const second = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(embedded) });
      expect(second.verdict).toBe("invalid");
      expect(second.checks.find((c) => c.id === "signature")!.detail).toContain("https://contexts.example/embedded.jsonld");

      expect(fetchSpy).not.toHaveBeenCalled();
      expect(httpSpy).not.toHaveBeenCalled();
      expect(httpsSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
      httpSpy.mockRestore();
      httpsSpy.mockRestore();
    }
  });

  it("a credential naming another host's DID as issuer but signed with our key is invalid", async () => {
    const { doc } = await issuedDocument();
    const forged = { ...doc, issuer: { ...doc.issuer, id: "did:web:university.example" } };
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(forged) });
    expect(report.verdict).toBe("invalid");
    expect(report.headline).toBe("Not valid: it was signed by someone other than the issuer it names.");
    expect(outcomes(report)).toMatchObject({ issuer: "failed", signature: "skipped" });
  });

  it("a PNG without the chunk, a file that is not a PNG, and a damaged PNG are each unverifiable with their reason", async () => {
    const plain = await verifyCredentialDocument({ kind: "png", bytes: await tinyPng() });
    expect(plain.verdict).toBe("unverifiable");
    expect(plain.headline).toContain("carries no baked credential");
    const notPng = await verifyCredentialDocument({ kind: "png", bytes: Buffer.from("GIF89a...") });
    expect(notPng.headline).toContain("not a PNG");
    const png = await tinyPng();
    const damaged = Buffer.from(png);
    damaged[20] = damaged[20]! ^ 0xff; // inside IHDR: its CRC no longer matches
    expect((await verifyCredentialDocument({ kind: "png", bytes: damaged })).headline).toContain("damaged");
  });

  it("an unknown URL of ours, and an unreachable one, are unverifiable", async () => {
    const ours = await verifyCredentialDocument({
      kind: "url",
      url: "http://localhost:4555/credentials/00000000-0000-4000-8000-000000000000/credential.json",
    });
    expect(ours).toMatchObject({ verdict: "unverifiable", headline: "Could not be verified: No credential is published at this address." });
    const away = await verifyCredentialDocument({ kind: "url", url: `http://${otherHost}/nothing-here.json` });
    expect(away.verdict).toBe("unverifiable");
    expect(away.checks[0]!.detail).toContain("answered 404");
  });
});

describe("credentials of another issuer (did:web over HTTP through lib/net)", () => {
  it("verify with the DID document and status list fetched from the issuer's host", async () => {
    const doc = await otherIssuerDocument({}, { revoked: [3] });
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) });
    expect(report.verdict).toBe("valid");
    expect(outcomes(report)).toEqual({ format: "passed", signature: "passed", issuer: "passed", status: "passed", validity: "passed" });
    expect(report.checks.find((c) => c.id === "issuer")!.summary).toContain(otherHost);
  });

  it("their revoked credential answers revoked", async () => {
    const doc = await otherIssuerDocument({}, { revoked: [7] });
    expect((await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) })).verdict).toBe("revoked");
  });

  it("a malformed status list fails the status check clearly and leaves the credential unverifiable", async () => {
    const doc = await otherIssuerDocument({}, { encodedList: "uNOT-GZIP-DATA" });
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) });
    expect(report.verdict).toBe("unverifiable");
    const status = report.checks.find((c) => c.id === "status")!;
    expect(status).toMatchObject({ outcome: "failed", summary: expect.stringContaining("malformed") });
    expect(status.detail).toContain("not gzip");
  });

  it("a status list that is not there leaves the credential unverifiable", async () => {
    const doc = await otherIssuerDocument({}, { revoked: [] });
    delete served["/issuers/other/status/1"];
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) });
    expect(report.verdict).toBe("unverifiable");
    expect(report.checks.find((c) => c.id === "status")!.detail).toContain("answered 404");
  });

  it("signed with the other host's key but naming our organization as issuer: invalid", async () => {
    const { doc: ours } = await issuedDocument();
    const doc = await otherIssuerDocument({ issuer: ours.issuer }, { revoked: [] });
    const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) });
    expect(report.verdict).toBe("invalid");
    expect(outcomes(report)).toMatchObject({ issuer: "failed" });
    expect(report.checks.find((c) => c.id === "issuer")!.detail).toContain(otherDid);
  });

  it("an issuer host that is down leaves the credential unverifiable", async () => {
    const doc = await otherIssuerDocument({}, { revoked: [] });
    const saved = served["/issuers/other/did.json"]!;
    delete served["/issuers/other/did.json"];
    try {
      const report = await verifyCredentialDocument({ kind: "json", json: JSON.stringify(doc) });
      expect(report.verdict).toBe("unverifiable");
      expect(outcomes(report)).toMatchObject({ issuer: "failed", signature: "skipped" });
    } finally {
      served["/issuers/other/did.json"] = saved;
    }
  });
});

async function tinyPng(): Promise<Buffer> {
  const { PNG } = await import("pngjs");
  const png = new PNG({ width: 2, height: 2 });
  png.data.fill(200);
  return PNG.sync.write(png);
}
