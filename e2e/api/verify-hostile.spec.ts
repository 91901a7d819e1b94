// A hostile pass over the verifier's public doors (POST /api/verify, /vc-api/credentials/verify,
// /vc-api/presentations/verify): issuers, contexts and status lists pointing at this machine, huge and
// deep inputs, PDF and PNG bombs. Every answer is a plain verdict or a 400/413 in the envelope, within
// a few seconds, and nothing is ever fetched from a loopback, private or link-local address (a listener
// on loopback counts what reaches it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync } from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { PDFDocument, PDFHexString, PDFName, PDFString } from "pdf-lib";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { didKeyIssuer, suiteFor } from "../support/did-key-issuer";
import { uniqueAddress } from "../support/wallet-helpers";

test.describe.configure({ timeout: 120_000 });

let listener: Server;
let hits: string[] = [];
let port = 0;

test.beforeAll(async () => {
  listener = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as AddressInfo).port;
});
test.afterAll(async () => new Promise<void>((resolve) => listener.close(() => resolve())));
test.beforeEach(() => {
  hits = [];
});

async function visitor(client: (o: { version?: string | null; headers?: Record<string, string> }) => Promise<APIRequestContext>) {
  return client({ version: null, headers: { "X-Forwarded-For": uniqueAddress() } });
}

const credential = (extra: Record<string, unknown>) => ({
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  type: ["VerifiableCredential"],
  issuer: "did:example:issuer",
  validFrom: "2024-01-01T00:00:00Z",
  credentialSubject: { id: "did:example:subject", name: "Ada" },
  proof: [
    {
      type: "DataIntegrityProof",
      cryptosuite: "eddsa-rdfc-2022",
      proofPurpose: "assertionMethod",
      verificationMethod: "did:example:issuer#key",
      proofValue: "z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKiZEYNjDj1g6xLZaM",
    },
  ],
  ...extra,
});

/** Posts the document to all three doors; each answer is a verdict (or 400 result), never a 500, quickly. */
async function throughEveryDoor(http: APIRequestContext, document: Record<string, unknown>, presentation = false) {
  const doors: [string, unknown, number[]][] = [
    ["/api/verify", { credential: document }, [200]],
    presentation
      ? ["/vc-api/presentations/verify", { verifiablePresentation: document }, [200, 400]]
      : ["/vc-api/credentials/verify", { verifiableCredential: document }, [200, 400]],
  ];
  const verdicts: string[] = [];
  for (const [path, data, statuses] of doors) {
    const started = Date.now();
    const res = await http.post(path, { data });
    expect(statuses, `${path} answered ${res.status()}`).toContain(res.status());
    expect(Date.now() - started, `${path} took too long`).toBeLessThan(6000);
    const body = (await res.json()) as { verdict?: string; verified?: boolean };
    expect(body.verdict ?? String(body.verified)).not.toBe("valid");
    expect(body.verified).not.toBe(true);
    verdicts.push(body.verdict ?? "");
  }
  return verdicts;
}

test("did:web issuers on loopback, private and link-local addresses: not valid, and no request made", async ({ client }) => {
  const http = await visitor(client);
  for (const host of [`127.0.0.1%3A${port}`, `localhost%3A${port}`, "169.254.169.254", "10.0.0.1", "192.168.1.1", "[::1]", "0.0.0.0"]) {
    const did = `did:web:${host}`;
    await throughEveryDoor(http, credential({ issuer: did, proof: [{ ...credential({}).proof[0], verificationMethod: `${did}#key-1` }] }));
  }
  expect(hits).toEqual([]);
});

test("a remote @context is never fetched: refused as not bundled", async ({ client }) => {
  const http = await visitor(client);
  const verdicts = await throughEveryDoor(
    http,
    credential({ "@context": ["https://www.w3.org/ns/credentials/v2", `http://127.0.0.1:${port}/ctx.jsonld`] }),
  );
  expect(verdicts[0]).toBe("invalid");
  expect(hits).toEqual([]);
});

test("status lists on loopback, and a signed credential whose list URL redirects: no request, never valid", async ({ client }) => {
  const vc = await import("@digitalbazaar/vc");
  const issuer = await didKeyIssuer();
  const http = await visitor(client);
  for (const listUrl of [
    `http://127.0.0.1:${port}/status/1`,
    `http://localhost:${port}/status/1`,
    "http://169.254.169.254/latest/meta-data/",
  ]) {
    const signed = await vc.issue({
      credential: {
        "@context": ["https://www.w3.org/ns/credentials/v2"],
        type: ["VerifiableCredential"],
        issuer: issuer.did,
        validFrom: "2024-01-01T00:00:00Z",
        credentialSubject: { id: "did:example:subject", name: "Ada" },
        credentialStatus: {
          id: `${listUrl}#5`,
          type: "BitstringStatusListEntry",
          statusPurpose: "revocation",
          statusListIndex: "5",
          statusListCredential: listUrl,
        },
      },
      suite: await suiteFor(issuer.signer),
      documentLoader: issuer.documentLoader,
    });
    const verdicts = await throughEveryDoor(http, signed);
    expect(verdicts[0]).toBe("unverifiable");
  }
  expect(hits).toEqual([]);
});

test("a presentation of 10,000 credentials and JSON 10,000 levels deep: a verdict or a 400, quickly", async ({ client }) => {
  const http = await visitor(client);
  const small = { "@context": ["https://www.w3.org/ns/credentials/v2"], type: ["VerifiableCredential"] };
  const presentation = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiablePresentation"],
    verifiableCredential: Array.from({ length: 10_000 }, () => small),
  };
  await throughEveryDoor(http, presentation, true);

  const deep = `{"credential":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  for (const path of ["/api/verify", "/vc-api/credentials/verify", "/vc-api/presentations/verify"]) {
    const started = Date.now();
    const res = await http.post(path, { data: deep, headers: { "content-type": "application/json" } });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toEqual(expect.any(String));
    expect(Date.now() - started).toBeLessThan(3000);
  }
});

test("a 50 MB PNG, a PDF bomb and a PDF with two credential.json: 413 or a plain verdict", async ({ client }) => {
  const http = await visitor(client);
  const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(50 * 1024 * 1024, 0x41)]);
  await expectError(await http.post("/api/verify", { data: png, headers: { "content-type": "image/png" } }), 413, "payload_too_large");

  const bomb = await PDFDocument.create();
  bomb.addPage([100, 100]);
  const file = bomb.context.register(
    bomb.context.stream(deflateSync(Buffer.alloc(512 * 1024 * 1024, 0x20), { level: 9 }), { Type: "EmbeddedFile", Filter: "FlateDecode" }),
  );
  const spec = bomb.context.register(
    bomb.context.obj({
      Type: "Filespec",
      F: PDFString.of("credential.json"),
      UF: PDFHexString.fromText("credential.json"),
      EF: { F: file },
    }),
  );
  bomb.catalog.set(PDFName.of("AF"), bomb.context.obj([spec]));
  const started = Date.now();
  const bombReport = (await expectStatus(
    await http.post("/api/verify", { data: Buffer.from(await bomb.save()), headers: { "content-type": "application/pdf" } }),
    200,
  )) as { verdict: string; headline: string };
  expect(Date.now() - started).toBeLessThan(5000);
  expect(bombReport.verdict).not.toBe("valid");
  expect(bombReport.headline).toContain("larger than");

  const two = await PDFDocument.create();
  two.addPage([100, 100]);
  await two.attach(Buffer.from('{"a":1}'), "credential.json", { mimeType: "application/json" });
  await two.attach(Buffer.from('{"b":2}'), "credential.json", { mimeType: "application/json" });
  const twoReport = (await expectStatus(
    await http.post("/api/verify", { data: Buffer.from(await two.save()), headers: { "content-type": "application/pdf" } }),
    200,
  )) as { verdict: string; headline: string };
  expect(twoReport.verdict).not.toBe("valid");
  expect(twoReport.headline).toContain("more than one credential.json");
});
