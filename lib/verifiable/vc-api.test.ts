import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("vc-api", { PUBLIC_URL: "http://localhost:4321", APP_SECRET: "vc-api-test-secret-0123456789abcdef" });

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { issueThroughVcApi, updateStatusThroughVcApi } = await import("./vc-api");
const service = await import("./service");
const { verifyDocumentProof } = await import("./signing");
const { decodeRevocationList } = await import("./status-list");
const { ApiError } = await import("../core/errors");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let other: Org;
let freeOrg: Org;
const did = (slug: string) => `did:web:localhost%3A4321:organizations:${slug}`;

beforeAll(async () => {
  org = await createOrganization({ slug: "vcapi-org", name: "VC API Academy", plan: "premium" });
  other = await createOrganization({ slug: "vcapi-other", name: "Other", plan: "premium" });
  freeOrg = await createOrganization({ slug: "vcapi-free", name: "Free", plan: "free" });
  await db().organization.update({ where: { id: freeOrg.id }, data: { monthlyIssueQuota: 1 } });
});

const caller = (o: Org) => ({ id: o.id, slug: o.slug, name: o.name, plan: o.plan, monthlyIssueQuota: null as number | null });

function credential(extra: Record<string, unknown> = {}) {
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiableCredential"],
    credentialSubject: { id: "did:example:alice", name: "Alice" },
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { code: (error as InstanceType<typeof ApiError>).code, message: (error as Error).message };
}

/** Whether the bit of our status entry is set in the organization's published list. */
async function revokedBit(slug: string, entry: { statusListCredential: string; statusListIndex: string }): Promise<boolean> {
  const list = JSON.parse((await service.statusListCredential(slug, Number(entry.statusListCredential.split("/").pop()))).json);
  return (await decodeRevocationList(list.credentialSubject.encodedList)).isSet(Number(entry.statusListIndex));
}

const records = (o: Org) => db().apiIssuedCredential.count({ where: { organizationId: o.id } });

describe("VC API issue", () => {
  it("goes on to a new status list when the last is full, counting one issue and writing one record", async () => {
    // The free plan, so that each issue is counted against the month's quota.
    const full = await createOrganization({ slug: "vcapi-full", name: "Full", plan: "free" });
    await db().organization.update({ where: { id: full.id }, data: { monthlyIssueQuota: 100 } });
    await issueThroughVcApi(caller(full), { credential: credential() });
    // A list of 16 takes 14 entries (7/8): with 14 counted it is full, and the next issue opens list 2.
    await db().statusList.updateMany({ where: { organizationId: full.id }, data: { length: 16, nextIndex: 14 } });
    const usage = () => db().monthlyUsage.aggregate({ where: { organizationId: full.id }, _sum: { issued: true } });
    const before = (await usage())._sum.issued ?? 0;
    const signed = (await issueThroughVcApi(caller(full), { credential: credential() })) as Record<string, any>;
    const statuses = [signed.credentialStatus].flat() as { statusListCredential: string }[];
    expect(statuses.at(-1)!.statusListCredential).toMatch(/\/2$/);
    expect((await usage())._sum.issued).toBe(before + 1);
    expect(await records(full)).toBe(2);
    expect(await db().apiIssuedCredential.count({ where: { organizationId: full.id, document: null } })).toBe(0);
  });

  it("signs a VC 2.0 credential as the organization, with a status entry of its lists, and records it", async () => {
    const signed = (await issueThroughVcApi(caller(org), { credential: credential() })) as Record<string, any>;
    expect(signed.issuer).toBe(did("vcapi-org"));
    expect(signed.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(signed.proof).toEqual([expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" })]);
    expect(signed.credentialStatus).toMatchObject({
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListCredential: "http://localhost:4321/organizations/vcapi-org/status/1",
    });
    const loader = service.ownDocumentLoader();
    expect(await verifyDocumentProof(signed, loader)).toEqual({ verified: true });
    expect(await revokedBit("vcapi-org", signed.credentialStatus)).toBe(false);
    const row = await db().apiIssuedCredential.findFirstOrThrow({ where: { credentialId: signed.id }, include: { statusEntry: true } });
    expect(JSON.parse(row.document!)).toEqual(signed);
    expect(row.statusEntry?.index).toBe(Number(signed.credentialStatus.statusListIndex));

    const revoked = await updateStatusThroughVcApi(caller(org), {
      credentialId: signed.id,
      credentialStatus: [{ type: "BitstringStatusListEntry", status: "revoked" }],
    });
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect(await revokedBit("vcapi-org", signed.credentialStatus)).toBe(true);
    // Revocation is final: again answers the same, with the first time.
    const again = await updateStatusThroughVcApi(caller(org), {
      credentialId: signed.id,
      credentialStatus: [{ type: "BitstringStatusListEntry", status: "revoked" }],
    });
    expect(again).toEqual(revoked);
    // Another organization's token does not find it.
    expect(
      (
        await refusal(
          updateStatusThroughVcApi(caller(other), {
            credentialId: signed.id,
            credentialStatus: [{ type: "BitstringStatusListEntry", status: "revoked" }],
          }),
        )
      ).code,
    ).toBe("not_found");
  });

  it("keeps the issuer when it is already the organization, as a string or a Profile object", async () => {
    const asObject = await issueThroughVcApi(caller(org), {
      credential: credential({ id: "https://example.com/credentials/1", issuer: { id: did("vcapi-org"), name: "VC API Academy" } }),
    });
    expect(asObject.issuer).toEqual({ id: did("vcapi-org"), name: "VC API Academy" });
    expect(asObject.id).toBe("https://example.com/credentials/1");
    const asString = await issueThroughVcApi(caller(org), { credential: credential({ issuer: did("vcapi-org") }) });
    expect(asString.issuer).toBe(did("vcapi-org"));
  });

  it.each([
    ["a VC 1.1 credential", { "@context": ["https://www.w3.org/2018/credentials/v1"] }, /VC 1\.1/],
    [
      "a context that is not bundled",
      { "@context": ["https://www.w3.org/ns/credentials/v2", "https://example.com/ctx.json"] },
      /not one of the bundled/,
    ],
    ["another issuer", { issuer: "did:web:example.com" }, /this organization's DID/],
    ["another issuer as an object", { issuer: { id: did("vcapi-other") } }, /this organization's DID/],
    ["no credentialSubject", { credentialSubject: undefined }, /credentialSubject/],
    ["an empty credentialSubject", { credentialSubject: {} }, /credentialSubject/],
    ["no VerifiableCredential type", { type: ["OpenBadgeCredential"] }, /credential\.type/],
    ["a validFrom without a time zone", { validFrom: "2026-01-01T00:00:00" }, /time zone/],
    ["validUntil before validFrom", { validFrom: "2026-01-02T00:00:00Z", validUntil: "2026-01-01T00:00:00Z" }, /before validFrom/],
    ["a proof", { proof: { type: "DataIntegrityProof" } }, /unsigned/],
    ["a credentialStatus without a type", { credentialStatus: { id: "did:example:status" } }, /credentialStatus.*type/i],
    [
      "a typeless credentialSchema",
      { credentialSchema: { id: "https://schema.example/1" } },
      /credentialSchema must be an object with a type/,
    ],
    ["a typeless refreshService", { refreshService: { id: "https://refresh.example/1" } }, /refreshService must be an object with a type/],
    [
      "a relatedResource without a digest",
      { relatedResource: [{ id: "https://www.w3.org/ns/credentials/v2" }] },
      /digestSRI or a digestMultibase/,
    ],
    ["a term no context defines", { credentialSubject: { id: "did:example:alice", undefinedTerm: "x" } }, /cannot be signed/],
  ])("refuses %s with a 400 that says why, and writes nothing", async (_what, extra, reason) => {
    const before = await records(org);
    const usage = await db().statusListEntry.count();
    const { code, message } = await refusal(issueThroughVcApi(caller(org), { credential: credential(extra) }));
    expect(code).toBe("validation_error");
    expect(message).toMatch(reason);
    expect(await records(org)).toBe(before);
    expect(await db().statusListEntry.count()).toBe(usage);
  });

  it("signs the client's own credentialStatus entries and adds its BitstringStatusListEntry beside them", async () => {
    const own = { id: "did:example:status", type: "CredentialStatusList2017" };
    const signed = (await issueThroughVcApi(caller(org), {
      credential: credential({
        "@context": [
          "https://www.w3.org/ns/credentials/v2",
          { CredentialStatusList2017: "https://example.org/examples#CredentialStatusList2017" },
        ],
        credentialStatus: own,
      }),
    })) as Record<string, any>;
    expect(signed.credentialStatus).toEqual([
      own,
      expect.objectContaining({ type: "BitstringStatusListEntry", statusPurpose: "revocation" }),
    ]);
    expect(await verifyDocumentProof(signed, service.ownDocumentLoader())).toEqual({ verified: true });
    const row = await db().apiIssuedCredential.findFirstOrThrow({ where: { credentialId: signed.id }, include: { statusEntry: true } });
    expect(row.statusEntry?.index).toBe(Number(signed.credentialStatus[1].statusListIndex));
  });

  it("refuses unknown options and a body without a credential", async () => {
    expect((await refusal(issueThroughVcApi(caller(org), { credential: credential(), options: { unknown: 1 } }))).code).toBe(
      "validation_error",
    );
    expect((await refusal(issueThroughVcApi(caller(org), {}))).code).toBe("validation_error");
  });

  it("counts against the free plan's monthly quota like an issue: over it, 402 and nothing written", async () => {
    const free = { ...caller(freeOrg), plan: "free", monthlyIssueQuota: 1 };
    await issueThroughVcApi(free, { credential: credential() });
    const entries = await db().statusListEntry.count();
    const { code } = await refusal(issueThroughVcApi(free, { credential: credential() }));
    expect(code).toBe("payment_required");
    expect(await records(freeOrg)).toBe(1);
    expect(await db().statusListEntry.count()).toBe(entries);
  });

  it("concurrent issues each get their own status index", async () => {
    const signed = await Promise.all(Array.from({ length: 8 }, () => issueThroughVcApi(caller(org), { credential: credential() })));
    const indexes = signed.map((s) => (s.credentialStatus as { statusListIndex: string }).statusListIndex);
    expect(new Set(indexes).size).toBe(8);
  });
});
