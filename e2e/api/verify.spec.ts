// POST /api/verify (the /verify page's checks, public) and the wallet's baked PNG download
// (GET /credentials/<publicId>/badge.png?design=...) (docs/api.md, Verify). Every credential, good or
// bad, gets 200 and a report with its verdict; only a request that names nothing to verify gets the
// error envelope. Each test verifies from an address of its own (the route is rate-limited per address).
import type { APIRequestContext } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import extractPngChunks from "png-chunks-extract";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import {
  draftCredential,
  expiredCredential,
  issueCredential,
  uniqueAddress,
  walletGroup,
  walletUrl,
  type Credential,
} from "../support/wallet-helpers";

type Report = {
  verdict: string;
  headline: string;
  checks: { id: string; outcome: string; summary: string; detail: string | null }[];
  facts: Record<string, string | null>;
};

async function visitor(client: (o: { version?: string | null; headers?: Record<string, string> }) => Promise<APIRequestContext>) {
  return client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
}

async function verify(http: APIRequestContext, data: unknown): Promise<Report> {
  return (await expectStatus(await http.post("/api/verify", { data }), 200)) as Report;
}

const outcomes = (r: Report) => r.checks.map((c) => `${c.id}:${c.outcome}`);

async function credentialJson(http: APIRequestContext, credential: Credential): Promise<string> {
  const res = await http.get(`/credentials/${credential.publicId}/credential.json`);
  expect(res.status()).toBe(200);
  return res.text();
}

function bakedText(png: Buffer): string {
  const chunk = extractPngChunks(png).find(
    (c) => c.name === "iTXt" && Buffer.from(c.data).subarray(0, 20).toString("latin1") === "openbadgecredential\0",
  );
  expect(chunk, "an iTXt openbadgecredential chunk").toBeTruthy();
  const data = Buffer.from(chunk!.data);
  expect([...data.subarray(20, 24)]).toEqual([0, 0, 0, 0]); // uncompressed, no language tag, no translated keyword
  return data.subarray(24).toString("utf8");
}

test("a credential verifies by its wallet URL, its credential.json URL, its JSON and as an object; the report names each check", async ({
  api,
  org,
  client,
  server,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Grace Hopper" });
  const url = walletUrl(server, credential.publicId);
  const pub = await visitor(client);
  const json = await credentialJson(pub, credential);
  for (const data of [{ url }, { url: `${url}/credential.json` }, { json }, { credential: JSON.parse(json) }]) {
    const report = await verify(pub, data);
    expect(report.verdict, JSON.stringify(data).slice(0, 80)).toBe("valid");
    expect(outcomes(report)).toEqual(["format:passed", "signature:passed", "issuer:warning", "status:passed", "validity:passed"]);
    expect(report.headline).toMatch(new RegExp(`^Valid: issued by E2E ${org.slug} to Grace Hopper on `));
    expect(report.facts).toMatchObject({ recipientName: "Grace Hopper", achievementName: group.name, issuerName: `E2E ${org.slug}` });
  }
});

test("tampered, revoked, expired and forged documents each get their verdict and reason", async ({ api, client, server }) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Alan Turing" });
  const pub = await visitor(client);
  const doc = JSON.parse(await credentialJson(pub, credential));

  const tampered = await verify(pub, { credential: { ...doc, credentialSubject: { ...doc.credentialSubject, name: "Mallory" } } });
  expect(tampered).toMatchObject({ verdict: "invalid", headline: "Not valid: the document was changed after it was signed." });
  expect(outcomes(tampered)).toContain("signature:failed");

  const forged = await verify(pub, { credential: { ...doc, issuer: { ...doc.issuer, id: "did:web:university.example" } } });
  expect(forged).toMatchObject({ verdict: "invalid", headline: "Not valid: it was signed by someone other than the issuer it names." });

  const unknownContext = await verify(pub, {
    credential: { ...doc, "@context": [...doc["@context"], "https://contexts.example/unknown.jsonld"] },
  });
  expect(unknownContext.verdict).toBe("invalid");
  expect(unknownContext.checks[0]).toMatchObject({ outcome: "failed", detail: expect.stringContaining("never fetched") });

  const truncated = await verify(pub, { json: JSON.stringify(doc).slice(0, 200) });
  expect(truncated.verdict).toBe("invalid");
  expect(truncated.checks[0]!.summary).toContain("not valid JSON");

  const tooLarge = await verify(pub, { json: JSON.stringify({ ...doc, padding: "x".repeat(300 * 1024) }) });
  expect(tooLarge.verdict).toBe("invalid");
  expect(tooLarge.checks[0]!.summary).toMatch(/too large/);

  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: { reason: "Issued in error" } }), 200);
  const revoked = await verify(pub, { credential: doc });
  expect(revoked.verdict).toBe("revoked");
  expect(revoked.headline).toMatch(/^Revoked on \w+ \d+, \d{4}: Issued in error$/);

  const expired = await expiredCredential(api, group.id, { name: "Barbara Liskov" });
  const expiredReport = await verify(pub, { url: walletUrl(server, expired.publicId) });
  expect(expiredReport.verdict).toBe("expired");
  expect(expiredReport.headline).toMatch(/^Expired on June 30, 2021: /);
  expect(outcomes(expiredReport)).toEqual(["format:passed", "signature:passed", "issuer:warning", "status:passed", "validity:failed"]);

  const draft = await draftCredential(api, group.id, { name: "Draft Person" });
  const unknown = await verify(pub, { url: walletUrl(server, draft.publicId) });
  expect(unknown).toMatchObject({
    verdict: "unverifiable",
    headline: "Could not be verified: No credential is published at this address.",
  });
});

test("requests that name nothing to verify get the error envelope; oversized bodies 413", async ({ client }) => {
  const pub = await visitor(client);
  await expectError(await pub.post("/api/verify", { data: {} }), 400, "validation_error");
  await expectError(await pub.post("/api/verify", { data: { url: "https://a.example", json: "{}" } }), 400, "validation_error");
  await expectError(await pub.post("/api/verify", { headers: { "Content-Type": "text/plain" }, data: "hello" }), 400, "validation_error", {
    paths: ["Content-Type"],
  });
  await expectError(
    await pub.post("/api/verify", { headers: { "Content-Type": "application/json" }, data: "{not json" }),
    400,
    "invalid_json",
  );
  await expectError(await pub.post("/api/verify", { data: { json: "x".repeat(10 * 1024 * 1024) } }), 413, "payload_too_large");
  await expectError(
    await pub.post("/api/verify", { headers: { "Content-Type": "image/png" }, data: Buffer.alloc(9 * 1024 * 1024) }),
    413,
    "payload_too_large",
  );
  const notPng = (await expectStatus(
    await pub.post("/api/verify", { headers: { "Content-Type": "image/png" }, data: Buffer.from("GIF89a") }),
    200,
  )) as Report;
  expect(notPng).toMatchObject({ verdict: "unverifiable", headline: "Could not be verified: The file is not a PNG image." });
});

test("the wallet's PNG download carries the signed credential; it verifies; none for revoked, draft or unknown designs", async ({
  api,
  client,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Katherine Johnson" });
  const pub = await visitor(client);
  const designId = (group as unknown as { designIds: string[] }).designIds[0]!;
  const path = `/credentials/${credential.publicId}/badge.png?design=${designId}&download=${encodeURIComponent("Katherine Johnson.png")}`;
  const res = await pub.get(path);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/png");
  expect(res.headers()["content-disposition"]).toBe('attachment; filename="Katherine Johnson.png"');
  const png = await res.body();
  expect(bakedText(png)).toBe(await credentialJson(pub, credential));

  // Dropped on /verify (the same route the page posts to), the file verifies.
  const report = (await expectStatus(
    await pub.post("/api/verify", { headers: { "Content-Type": "image/png" }, data: png }),
    200,
  )) as Report;
  expect(report.verdict).toBe("valid");
  // The wallet page links its PNG button here (a recipient's tool, drawn in the browser from the page's data).
  const page = await (await pub.get(`/credentials/${credential.publicId}`)).text();
  expect(page).toContain(`/credentials/${credential.publicId}/badge.png?design=${designId}`);

  await expectError(await pub.get(`/credentials/${credential.publicId}/badge.png`), 404, "not_found");
  await expectError(await pub.get(`/credentials/${credential.publicId}/badge.png?design=dsgn_unknown`), 404, "not_found");
  const draft = await draftCredential(api, group.id, { name: "Draft Person" });
  await expectError(await pub.get(`/credentials/${draft.publicId}/badge.png?design=${designId}`), 404, "not_found");
  await expectError(await pub.get(`/credentials/not-a-uuid/badge.png?design=${designId}`), 404, "not_found");
  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: {} }), 200);
  await expectError(await pub.get(path), 404, "not_found");
});

test("a PDF carrying credential.json verifies; without one it says so plainly; damaged or over 8 MiB are a verdict and a 413", async ({
  api,
  client,
}) => {
  const group = await walletGroup(api);
  const credential = await issueCredential(api, group.id, { name: "Dorothy Vaughan" });
  const pub = await visitor(client);
  const json = await credentialJson(pub, credential);
  const pdfWith = async (attachment: string | null) => {
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 100]);
    if (attachment !== null) await pdf.attach(Buffer.from(attachment), "credential.json", { mimeType: "application/json" });
    return Buffer.from(await pdf.save());
  };
  const postPdf = async (data: Buffer) =>
    (await expectStatus(await pub.post("/api/verify", { headers: { "Content-Type": "application/pdf" }, data }), 200)) as Report;

  const report = await postPdf(await pdfWith(json));
  expect(report.verdict).toBe("valid");
  expect(report.facts).toMatchObject({ recipientName: "Dorothy Vaughan" });

  const empty = await postPdf(await pdfWith(null));
  expect(empty).toMatchObject({ verdict: "unverifiable", headline: "Could not be verified: There is no credential inside this PDF." });
  const damaged = await postPdf((await pdfWith(null)).subarray(0, 40));
  expect(damaged).toMatchObject({ verdict: "unverifiable", headline: "Could not be verified: The PDF is damaged and cannot be read." });
  await expectError(
    await pub.post("/api/verify", { headers: { "Content-Type": "application/pdf" }, data: Buffer.alloc(9 * 1024 * 1024) }),
    413,
    "payload_too_large",
  );
});
