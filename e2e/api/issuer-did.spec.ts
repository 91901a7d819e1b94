// Issuer identity (docs/api.md, Verifiable credentials; docs/operating.md, Command line): each organization's did:web DID document at
// {PUBLIC_URL}/organizations/{slug}/did.json, its Ed25519 keys as Multikeys, and key rotation by the CLI.
import { randomBytes } from "node:crypto";
import { test, expect, type CommandResult } from "../fixtures";
import { expectError } from "../support/api-helpers";
import { secretMaterialIn } from "../support/secret-material";

type DidDocument = {
  "@context": string[];
  id: string;
  verificationMethod: { id: string; type: string; controller: string; publicKeyMultibase: string }[];
  assertionMethod: string[];
  authentication: string[];
};

// An Ed25519 public key as a Multikey: base58btc ('z') of 0xed01 + 32 bytes always starts "z6Mk".
const ED25519_MULTIKEY = /^z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/;

function lastLine(result: CommandResult): string {
  return result.stdout.trim().split("\n").at(-1)!.trim();
}

async function fetchDidDocument(
  request: { get: (url: string) => Promise<import("@playwright/test").APIResponse> },
  slug: string,
): Promise<DidDocument> {
  const res = await request.get(`/organizations/${slug}/did.json`);
  const text = await res.text();
  expect(res.status(), text).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/(did\+)?json/);
  const maxAge = Number(/max-age=(\d+)/.exec(res.headers()["cache-control"] ?? "")?.[1]);
  expect(maxAge).toBeGreaterThan(0);
  expect(maxAge).toBeLessThanOrEqual(300);
  expect(secretMaterialIn(text)).toBeNull();
  return JSON.parse(text) as DidDocument;
}

function expectWellFormed(doc: DidDocument, did: string): void {
  expect(doc["@context"]).toEqual(["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"]);
  expect(doc.id).toBe(did);
  expect(doc.verificationMethod.length).toBeGreaterThan(0);
  for (const method of doc.verificationMethod) {
    expect(Object.keys(method).sort()).toEqual(["controller", "id", "publicKeyMultibase", "type"]);
    expect(method.type).toBe("Multikey");
    expect(method.controller).toBe(did);
    expect(method.id.startsWith(`${did}#`)).toBe(true);
    expect(method.publicKeyMultibase).toMatch(ED25519_MULTIKEY);
  }
  const ids = doc.verificationMethod.map((m) => m.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(doc.assertionMethod).toEqual(ids);
  expect(doc.authentication).toEqual(ids);
}

test("the DID document: did:web for the public URL (port colon percent-encoded), one Ed25519 Multikey, no secrets", async ({
  client,
  newOrg,
  server,
}) => {
  const org = await newOrg();
  const anonymous = await client();
  const doc = await fetchDidDocument(anonymous, org.slug);
  // The test servers run without PUBLIC_URL, so the app's public URL is http://localhost:<port>.
  expectWellFormed(doc, `did:web:localhost%3A${server.port}:organizations:${org.slug}`);
  expect(doc.verificationMethod).toHaveLength(1);
  // The same key on the next request: made once, then kept.
  expect(await fetchDidDocument(anonymous, org.slug)).toEqual(doc);
});

test("concurrent first requests make one key", async ({ client, newOrg }) => {
  const org = await newOrg();
  const anonymous = await client();
  const docs = await Promise.all(Array.from({ length: 6 }, () => fetchDidDocument(anonymous, org.slug)));
  for (const doc of docs) {
    expect(doc.verificationMethod).toHaveLength(1);
    expect(doc).toEqual(docs[0]);
  }
});

test("org rotate-key adds a new current key and keeps the old one listed", async ({ cli, client, newOrg, server }) => {
  const org = await newOrg();
  const anonymous = await client();
  const before = await fetchDidDocument(anonymous, org.slug);
  const env = { PUBLIC_URL: `http://localhost:${server.port}` };

  const rotated = await cli(["org", "rotate-key", org.slug], env);
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(secretMaterialIn(rotated.stdout + rotated.stderr)).toBeNull();
  const newMethod = lastLine(rotated);
  expect(newMethod.startsWith(`${before.id}#`)).toBe(true);

  const after = await fetchDidDocument(anonymous, org.slug);
  expectWellFormed(after, before.id);
  expect(after.verificationMethod).toHaveLength(2);
  expect(after.verificationMethod[0]).toEqual(before.verificationMethod[0]);
  expect(after.verificationMethod[1]!.id).toBe(newMethod);
  expect(after.verificationMethod[1]!.publicKeyMultibase).not.toBe(before.verificationMethod[0]!.publicKeyMultibase);

  const again = await cli(["org", "rotate-key", org.slug], env);
  expect(again.code, again.stderr).toBe(0);
  const third = await fetchDidDocument(anonymous, org.slug);
  expect(third.verificationMethod.map((m) => m.id)).toEqual([...after.verificationMethod.map((m) => m.id), lastLine(again)]);
});

test("concurrent rotations each add a key and leave the document consistent", async ({ cli, client, newOrg }) => {
  const org = await newOrg();
  const anonymous = await client();
  await fetchDidDocument(anonymous, org.slug);
  const results = await Promise.all([
    cli(["org", "rotate-key", org.slug]),
    cli(["org", "rotate-key", org.slug]),
    cli(["org", "rotate-key", org.slug]),
  ]);
  for (const r of results) expect(r.code, r.stderr).toBe(0);
  const fragments = results.map((r) => lastLine(r).split("#")[1]);
  expect(new Set(fragments).size).toBe(3);
  const doc = await fetchDidDocument(anonymous, org.slug);
  expect(doc.verificationMethod).toHaveLength(4);
  const listed = doc.verificationMethod.map((m) => m.id.split("#")[1]);
  for (const fragment of fragments) expect(listed).toContain(fragment);
});

test("rotate-key for an unknown or malformed slug fails and prints no key", async ({ cli }) => {
  for (const slug of [`missing-${randomBytes(3).toString("hex")}`, "Not_A_Slug"]) {
    const res = await cli(["org", "rotate-key", slug]);
    expect(res.code).toBe(2);
    expect(res.stdout).not.toContain("did:web");
    expect(res.stderr.length).toBeGreaterThan(0);
  }
});

test("an unknown or malformed slug: 404 in the error envelope", async ({ client }) => {
  const anonymous = await client();
  for (const slug of [`missing-${randomBytes(3).toString("hex")}`, "UPPER", "-dash", "a".repeat(51)]) {
    const res = await anonymous.get(`/organizations/${slug}/did.json`);
    await expectError(res, 404, "not_found");
    expect(res.headers()["x-request-id"]).toBeTruthy();
  }
});

test("no secret key material in the server's log output, even at debug level", async ({ startServer, client, newOrg, cli }) => {
  const extra = await startServer({ LOG_LEVEL: "debug" });
  const org = await newOrg();
  const anonymous = await client({ baseURL: extra.baseURL });
  await Promise.all([fetchDidDocument(anonymous, org.slug), fetchDidDocument(anonymous, org.slug)]);
  const rotated = await cli(["org", "rotate-key", org.slug]);
  expect(rotated.code, rotated.stderr).toBe(0);
  expect((await fetchDidDocument(anonymous, org.slug)).verificationMethod).toHaveLength(2);
  await expectError(await anonymous.get("/organizations/missing-org/did.json"), 404, "not_found");
  const output = extra.output();
  expect(output).toContain("did.json"); // the requests were logged: the check below looked at them
  expect(secretMaterialIn(output)).toBeNull();
});
