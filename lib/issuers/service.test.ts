import { verify as nodeVerify, createPublicKey } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

let service: typeof import("./service");
let organizations: typeof import("../organizations/service");
let database: typeof import("../db");

beforeAll(async () => {
  await scratchDatabase("issuer-keys", { PUBLIC_URL: "http://localhost:4321", APP_SECRET: "issuer-keys-test-secret-0123456789abcdef" });
  service = await import("./service");
  organizations = await import("../organizations/service");
  database = await import("../db");
});

let n = 0;
async function newOrg() {
  const org = await organizations.createOrganization({ slug: `issuer-${n++}` });
  return { id: org.id, slug: org.slug };
}

/** The raw 32-byte Ed25519 public key inside a Multikey value (base58btc, multicodec 0xed01). */
function rawPublicKey(publicKeyMultibase: string): Buffer {
  const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let value = 0n;
  for (const ch of publicKeyMultibase.slice(1)) value = value * 58n + BigInt(ALPHABET.indexOf(ch));
  const bytes = Buffer.from(value.toString(16).padStart(68, "0"), "hex");
  expect(bytes.subarray(0, 2).toString("hex")).toBe("ed01");
  return bytes.subarray(2);
}

describe("issuer keys", () => {
  it("makes an Ed25519 Multikey on first need, and keeps returning it", async () => {
    const org = await newOrg();
    const key = await service.currentIssuerKey(org);
    expect(key.publicKeyMultibase).toMatch(/^z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(key.verificationMethod).toBe(`did:web:localhost%3A4321:organizations:${org.slug}#${key.id}`);
    expect(await service.currentIssuerKey(org)).toEqual(key);
  });

  it("stores the secret key encrypted, and signs with it: the signature verifies under the listed public key", async () => {
    const org = await newOrg();
    const key = await service.currentIssuerKey(org);
    const row = await database.db().issuerKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.encryptedSecretKey).toMatch(/^v1\./);
    expect(row.encryptedSecretKey).not.toMatch(/zrv/);

    const signer = await service.issuerSigner(org);
    expect(signer.id).toBe(key.verificationMethod);
    expect(signer.algorithm).toBe("Ed25519");
    const data = new TextEncoder().encode("hello");
    const signature = await signer.sign({ data });
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), rawPublicKey(key.publicKeyMultibase)]);
    const publicKey = createPublicKey({ key: spki, format: "der", type: "spki" });
    expect(nodeVerify(null, data, publicKey, signature)).toBe(true);
    expect(nodeVerify(null, new TextEncoder().encode("hellp"), publicKey, signature)).toBe(false);
  });

  it("two first uses at once end with one current key", async () => {
    const org = await newOrg();
    const keys = await Promise.all(Array.from({ length: 8 }, () => service.currentIssuerKey(org)));
    expect(new Set(keys.map((k) => k.id)).size).toBe(1);
    expect(await database.db().issuerKey.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it("rotation makes a new key current and keeps every earlier key in the DID document", async () => {
    const org = await newOrg();
    const first = await service.currentIssuerKey(org);
    const second = await service.rotateIssuerKey(org);
    const third = await service.rotateIssuerKey(org);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect((await service.currentIssuerKey(org)).id).toBe(third.id);
    expect((await service.issuerSigner(org)).id).toBe(third.verificationMethod);

    const doc = await service.organizationDidDocument(org.slug);
    expect(doc.id).toBe(`did:web:localhost%3A4321:organizations:${org.slug}`);
    expect(doc.verificationMethod.map((m) => m.id)).toEqual([first, second, third].map((k) => k.verificationMethod));
    expect(doc.assertionMethod).toEqual([first, second, third].map((k) => k.verificationMethod));
    const rows = await database.db().issuerKey.findMany({ where: { organizationId: org.id }, orderBy: { createdAt: "asc" } });
    expect(rows.filter((r) => r.currentFor !== null).map((r) => r.id)).toEqual([third.id]);
    expect(
      rows
        .filter((r) => r.retiredAt !== null)
        .map((r) => r.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());
  });

  it("concurrent rotations leave exactly one current key", async () => {
    const org = await newOrg();
    await service.currentIssuerKey(org);
    await Promise.all([service.rotateIssuerKey(org), service.rotateIssuerKey(org), service.rotateIssuerKey(org)]);
    const rows = await database.db().issuerKey.findMany({ where: { organizationId: org.id } });
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.currentFor !== null)).toHaveLength(1);
  });

  it("the DID document of an unknown organization is a not_found error, and makes nothing", async () => {
    await expect(service.organizationDidDocument("no-such-org")).rejects.toMatchObject({ code: "not_found" });
  });

  it("another organization's keys are not listed", async () => {
    const a = await newOrg();
    const b = await newOrg();
    const keyA = await service.currentIssuerKey(a);
    const docB = await service.organizationDidDocument(b.slug);
    expect(JSON.stringify(docB)).not.toContain(keyA.publicKeyMultibase);
    expect(docB.verificationMethod).toHaveLength(1);
  });
});
