import { beforeAll, describe, expect, it } from "vitest";
import { verifyCredential as independentVerify } from "@digitalcredentials/vc";
import { DataIntegrityProof as IndependentProof } from "@digitalcredentials/data-integrity";
import { cryptosuite as independentCryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import { openBadgesSchemaErrors } from "../../test/support/open-badges/schema";

await scratchDatabase("verifiable", { PUBLIC_URL: "http://localhost:4321", APP_SECRET: "verifiable-test-secret-0123456789abcdef" });

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup, updateGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { rotateIssuerKey } = await import("../issuers/service");
const service = await import("./service");
const { processSingleton } = await import("../core/process-singleton");
const { verifyDocumentProof } = await import("./signing");
const { statusEntryFor } = await import("./status-entries");
const { decodeRevocationList } = await import("./status-list");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let groupId: string;
let n = 0;

beforeAll(async () => {
  org = await createOrganization({ slug: "vc-org", name: "VC Academy", plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  groupId = (await createGroup(org.id, { name: "Course", designIds: [design.id] })).id;
});

async function issued(name = `Person ${n++}`) {
  return credentials.createIssueCredential(org, { groupId, recipient: { name, email: `p${n++}@example.com` } });
}

const loader = () => service.ownDocumentLoader();

describe("signed OpenBadgeCredentials", () => {
  it("are signed on first request and verify; the same content answers the same bytes", async () => {
    const credential = await issued();
    const first = await service.organizationOpenBadgeCredential(org, credential.id);
    const doc = JSON.parse(first.json);
    expect(doc.proof).toEqual([
      expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022", proofPurpose: "assertionMethod" }),
    ]);
    expect(doc.proof[0].verificationMethod).toMatch(/^did:web:localhost%3A4321:organizations:vc-org#ikey_/);
    expect(doc.id).toBe(`http://localhost:4321/credentials/${credential.publicId}/credential.json`);
    expect(await verifyDocumentProof(doc, loader())).toEqual({ verified: true });

    const again = await service.publicOpenBadgeCredential(credential.publicId);
    expect(again).toEqual(first);
    expect(await db().signedCredential.count({ where: { credentialId: credential.id } })).toBe(1);
  });

  it("a content change signs a new document; the old one keeps verifying, after a key rotation too", async () => {
    const credential = await issued();
    const before = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    await credentials.updateCredential(org, credential.id, { recipient: { id: credential.recipient!.id, name: "Renamed Person" } });
    await rotateIssuerKey(org);
    const after = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    expect(after.credentialSubject.name).toBe("Renamed Person");
    expect(after.proof[0].verificationMethod).not.toBe(before.proof[0].verificationMethod);
    expect(await verifyDocumentProof(before, loader())).toEqual({ verified: true });
    expect(await verifyDocumentProof(after, loader())).toEqual({ verified: true });
    expect(await db().signedCredential.count({ where: { credentialId: credential.id } })).toBe(2);
  });

  it("a group's description and criteria are signed; changing them re-signs", async () => {
    const credential = await issued();
    const before = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    expect(before.credentialSubject.achievement.description).toBe("Course, awarded by VC Academy.");
    await updateGroup(org.id, groupId, { description: "What it covers.", criteria: "Attend every session." });
    const after = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    expect(after.credentialSubject.achievement).toMatchObject({
      description: "What it covers.",
      criteria: { narrative: "Attend every session." },
    });
    await updateGroup(org.id, groupId, { description: null, criteria: null });
  });

  it("validate against 1EdTech's Open Badges 3.0 JSON Schema, with and without an expiry date", async () => {
    const credential = await issued();
    const doc = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    expect(openBadgesSchemaErrors(doc)).toEqual([]);
    const expiring = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Expiring Person", email: `e${n++}@example.com` },
      expiryDate: "2099-12-31",
    });
    const expiringDoc = JSON.parse((await service.organizationOpenBadgeCredential(org, expiring.id)).json);
    expect(expiringDoc.validUntil).toBe("2099-12-31T23:59:59Z");
    expect(openBadgesSchemaErrors(expiringDoc)).toEqual([]);
    // The schema's test is real: the single-object proof form our documents had before is refused.
    expect(openBadgesSchemaErrors({ ...doc, proof: doc.proof[0] })).not.toEqual([]);
  });

  it("a document stored with a single proof object is served with it in an array; both forms verify independently", async () => {
    const credential = await issued();
    const served = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    const oldForm = { ...served, proof: served.proof[0] };
    // As a row written before proofs were arrays: the same signature, the proof as an object.
    await db().signedCredential.updateMany({ where: { credentialId: credential.id }, data: { document: JSON.stringify(oldForm) } });
    // A fresh process (no memory cache) reads the old row.
    processSingleton("verifiable.signedDocuments", () => new Map<string, string>()).clear();
    const fromRow = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    expect(fromRow.proof).toEqual([oldForm.proof]);
    expect(fromRow).toEqual(served);

    const independently = async (document: object) =>
      (
        await independentVerify({
          credential: document,
          suite: new IndependentProof({ cryptosuite: independentCryptosuite }),
          documentLoader: loader(),
          checkStatus: async () => ({ verified: true }),
        })
      ).verified;
    expect(await independently(oldForm)).toBe(true);
    expect(await independently(fromRow)).toBe(true);
    expect(await verifyDocumentProof(oldForm, loader())).toEqual({ verified: true });
    expect(await verifyDocumentProof(fromRow, loader())).toEqual({ verified: true });
  });

  it("a tampered document does not verify", async () => {
    const credential = await issued();
    const doc = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    const check = await verifyDocumentProof({ ...doc, name: "Something else" }, loader());
    expect(check.verified).toBe(false);
  });

  it("drafts and scheduled credentials have none: 409 through the API, null (404) in public; another organization: not_found", async () => {
    const draft = await credentials.createCredential(org, { groupId, recipient: { name: "Draft", email: "draft@example.com" } });
    await expect(service.organizationOpenBadgeCredential(org, draft.id)).rejects.toMatchObject({ code: "conflict" });
    expect(await service.publicOpenBadgeCredential(draft.publicId)).toBeNull();
    const scheduled = await credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Later", email: "later@example.com" },
      issueDate: "2999-01-01",
    });
    await expect(service.organizationOpenBadgeCredential(org, scheduled.id)).rejects.toMatchObject({ code: "conflict" });
    expect(await service.publicOpenBadgeCredential(scheduled.publicId)).toBeNull();
    expect(await service.publicOpenBadgeCredential("not-a-uuid")).toBeNull();
    const other = await createOrganization({ slug: "vc-other" });
    const mine = await issued();
    await expect(service.organizationOpenBadgeCredential(other, mine.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await db().statusListEntry.count({ where: { credentialId: { in: [draft.id, scheduled.id] } } })).toBe(0);
  });
});

describe("status list entries", () => {
  it("concurrent first requests for many credentials hand out distinct indexes, one entry per credential", async () => {
    const many = await Promise.all(Array.from({ length: 12 }, () => issued()));
    const entries = await Promise.all(
      many.flatMap((c) => [statusEntryFor({ id: c.id, organizationId: org.id }), statusEntryFor({ id: c.id, organizationId: org.id })]),
    );
    for (let i = 0; i < many.length; i++) expect(entries[2 * i]).toEqual(entries[2 * i + 1]);
    const pairs = new Set(entries.map((e) => `${e.listNumber}:${e.index}`));
    expect(pairs.size).toBe(many.length);
    expect(await db().statusListEntry.count({ where: { credentialId: { in: many.map((c) => c.id) } } })).toBe(many.length);
  });

  it("indexes are drawn at random across the list, not handed out in issuing order", async () => {
    const fresh = await createOrganization({ slug: "vc-random" });
    const design = await createDesign(fresh, { name: "D", type: "badge" });
    const g = (await createGroup(fresh.id, { name: "G", designIds: [design.id] })).id;
    const indexes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const c = await credentials.createIssueCredential(fresh, { groupId: g, recipient: { name: `R${i}`, email: `r${i}@example.com` } });
      const entry = await statusEntryFor({ id: c.id, organizationId: fresh.id });
      expect(entry.listNumber).toBe(1);
      expect(entry.index).toBeGreaterThanOrEqual(0);
      expect(entry.index).toBeLessThan(131_072);
      indexes.push(entry.index);
    }
    expect(new Set(indexes).size).toBe(40);
    // In order they would be 0..39; at random, 40 draws below 10,000 of 131,072 happen with p ≈ 1e-45.
    expect(Math.max(...indexes)).toBeGreaterThan(10_000);
    expect(indexes).not.toEqual([...indexes].sort((a, b) => a - b));
  });

  it("a list takes entries up to 7/8 of its length, then the next one opens; a short list hands out every usable index once", async () => {
    const fresh = await createOrganization({ slug: "vc-full" });
    const design = await createDesign(fresh, { name: "D", type: "badge" });
    const g = (await createGroup(fresh.id, { name: "G", designIds: [design.id] })).id;
    const issue = (name: string) =>
      credentials.createIssueCredential(fresh, { groupId: g, recipient: { name, email: `${name}@example.com` } });
    const first = await issue("a");
    expect((await statusEntryFor({ id: first.id, organizationId: fresh.id })).listNumber).toBe(1);
    // A list of 16 entries takes 14 (7/8): the first one, then 13 more drawn concurrently, all distinct.
    await db().statusList.updateMany({ where: { organizationId: fresh.id }, data: { length: 16, nextIndex: 1 } });
    await db().statusListEntry.updateMany({ where: { credentialId: first.id }, data: { index: 3 } });
    const more = await Promise.all(Array.from({ length: 13 }, (_, i) => issue(`m${i}`)));
    const entries = await Promise.all(more.map((c) => statusEntryFor({ id: c.id, organizationId: fresh.id })));
    expect(entries.every((e) => e.listNumber === 1 && e.index >= 0 && e.index < 16 && e.index !== 3)).toBe(true);
    expect(new Set(entries.map((e) => e.index)).size).toBe(13);
    const next = await issue("z");
    expect((await statusEntryFor({ id: next.id, organizationId: fresh.id })).listNumber).toBe(2);
    expect(await db().statusList.findFirst({ where: { organizationId: fresh.id, number: 1 }, select: { nextIndex: true } })).toEqual({
      nextIndex: 14,
    });
  });
});

describe("status list credentials", () => {
  it("are signed by the organization, verify, and revoking (or deleting) a credential sets its bit", async () => {
    const credential = await issued();
    const doc = JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json);
    const index = Number(doc.credentialStatus.statusListIndex);
    const number = Number(doc.credentialStatus.statusListCredential.split("/").pop());
    const read = async () => JSON.parse((await service.statusListCredential("vc-org", number)).json);

    const before = await read();
    expect(before.issuer).toBe(doc.issuer.id);
    expect(before.proof).toEqual([expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" })]);
    expect(await verifyDocumentProof(before, loader())).toEqual({ verified: true });
    expect((await decodeRevocationList(before.credentialSubject.encodedList)).isSet(index)).toBe(false);
    // Unchanged bits: answered from memory, not signed again.
    expect(await service.statusListCredential("vc-org", number)).toEqual(await service.statusListCredential("vc-org", number));

    await credentials.revokeCredential(org, credential.id, { reason: "Issued by mistake" });
    const after = await read();
    expect(await verifyDocumentProof(after, loader())).toEqual({ verified: true });
    expect((await decodeRevocationList(after.credentialSubject.encodedList)).isSet(index)).toBe(true);
    // Still served, and still says where its status is.
    expect(JSON.parse((await service.organizationOpenBadgeCredential(org, credential.id)).json).credentialStatus).toEqual(
      doc.credentialStatus,
    );

    const gone = await issued();
    const goneIndex = Number(
      JSON.parse((await service.organizationOpenBadgeCredential(org, gone.id)).json).credentialStatus.statusListIndex,
    );
    await credentials.deleteCredential(org, gone.id);
    expect((await decodeRevocationList((await read()).credentialSubject.encodedList)).isSet(goneIndex)).toBe(true);
  });

  it("our own status list URLs are recognised exactly; others are not", () => {
    expect(service.parseOwnStatusListUrl("http://localhost:4321/organizations/vc-org/status/3")).toEqual({ slug: "vc-org", listNumber: 3 });
    for (const url of [
      "http://localhost:4321/organizations/vc-org/status/0",
      "http://localhost:4321/organizations/vc-org/status/03",
      "http://localhost:4321/organizations/vc-org/status/1/x",
      "http://other:4321/organizations/vc-org/status/1",
      "http://localhost:4321/organizations/a/b/status/1",
    ]) {
      expect(service.parseOwnStatusListUrl(url)).toBeNull();
    }
  });

  it("an unknown organization or list is not_found", async () => {
    await expect(service.statusListCredential("no-such-org", 1)).rejects.toMatchObject({ code: "not_found" });
    await expect(service.statusListCredential("vc-org", 99)).rejects.toMatchObject({ code: "not_found" });
  });
});
