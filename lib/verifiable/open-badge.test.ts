import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { emailIdentityHash, identitySalt } from "./identity";
import { buildOpenBadgeCredential, type OpenBadgeSource } from "./open-badge";

const source: OpenBadgeSource = {
  documentUrl: "https://wallet.example/credentials/0b6f/credential.json",
  credential: {
    issueDate: "2025-03-01",
    expiryDate: "2027-02-28",
    recipientName: "Ada Lovelace",
    recipientEmail: "Ada@Example.com",
    identitySalt: "0123456789abcdef0123456789abcdef",
  },
  organization: {
    did: "did:web:certs.example:organizations:acme",
    name: "Acme Academy",
    logoUrl: "https://certs.example/organizations/org_1/logo?v=1",
    profileUrl: "https://certs.example/organizations/acme",
  },
  group: {
    achievementId: "https://certs.example/organizations/acme/achievements/grp_1",
    name: "Safety Training",
    description: "Covers the basics.",
    criteria: "Pass the exam.",
  },
  imageUrl: "https://certs.example/previews/abc.png",
  status: { listUrl: "https://certs.example/organizations/acme/status/1", index: 42 },
};

describe("the unsigned OpenBadgeCredential", () => {
  it("has the shape docs/api.md describes (Verifiable credentials)", () => {
    const salt = source.credential.identitySalt;
    expect(buildOpenBadgeCredential(source)).toEqual({
      "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
      id: source.documentUrl,
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      name: "Safety Training",
      issuer: {
        id: source.organization.did,
        type: ["Profile"],
        name: "Acme Academy",
        url: "https://certs.example/organizations/acme",
        image: { id: source.organization.logoUrl, type: "Image" },
      },
      validFrom: "2025-03-01T00:00:00Z",
      validUntil: "2027-02-28T23:59:59Z",
      image: { id: "https://certs.example/previews/abc.png", type: "Image" },
      credentialSubject: {
        type: ["AchievementSubject"],
        name: "Ada Lovelace",
        identifier: [
          {
            type: "IdentityObject",
            identityHash: `sha256$${createHash("sha256").update(`ada@example.com${salt}`).digest("hex")}`,
            identityType: "emailAddress",
            hashed: true,
            salt,
          },
          { type: "IdentityObject", identityHash: "Ada Lovelace", identityType: "name", hashed: false },
        ],
        achievement: {
          id: source.group.achievementId,
          type: ["Achievement"],
          name: "Safety Training",
          description: "Covers the basics.",
          criteria: { narrative: "Pass the exam." },
        },
      },
      credentialStatus: {
        id: "https://certs.example/organizations/acme/status/1#42",
        type: "BitstringStatusListEntry",
        statusPurpose: "revocation",
        statusListIndex: "42",
        statusListCredential: "https://certs.example/organizations/acme/status/1",
      },
    });
  });

  it("leaves out what is absent: no expiry, no email, no logo, no drawable image; group texts fall back to defaults", () => {
    const doc = buildOpenBadgeCredential({
      ...source,
      credential: { ...source.credential, expiryDate: null, recipientEmail: null },
      organization: { ...source.organization, logoUrl: null },
      group: { ...source.group, description: null, criteria: null },
      imageUrl: null,
    });
    expect(doc).not.toHaveProperty("validUntil");
    expect(doc).not.toHaveProperty("image");
    expect(doc.issuer).not.toHaveProperty("image");
    expect(doc.credentialSubject.identifier).toEqual([
      { type: "IdentityObject", identityHash: "Ada Lovelace", identityType: "name", hashed: false },
    ]);
    expect(doc.credentialSubject.achievement.description).toBe("Safety Training, awarded by Acme Academy.");
    expect(doc.credentialSubject.achievement.criteria).toEqual({ narrative: "Awarded by Acme Academy." });
  });

  it("is the same JSON for the same inputs, and different when any of them changes", () => {
    const json = (s: OpenBadgeSource) => JSON.stringify(buildOpenBadgeCredential(s));
    expect(json(source)).toBe(json(structuredClone(source)));
    const changes: OpenBadgeSource[] = [
      { ...source, credential: { ...source.credential, recipientName: "Ada King" } },
      { ...source, credential: { ...source.credential, issueDate: "2025-03-02" } },
      { ...source, credential: { ...source.credential, recipientEmail: "ada@other.example" } },
      { ...source, group: { ...source.group, criteria: "Pass two exams." } },
      { ...source, organization: { ...source.organization, name: "Acme" } },
      { ...source, imageUrl: "https://certs.example/previews/def.png" },
    ];
    for (const changed of changes) expect(json(changed)).not.toBe(json(source));
  });
});

describe("identity hashes", () => {
  it("a salt is stable per credential and secret, 128 bits of hex, and differs across credentials and secrets", () => {
    const a = identitySalt("cred_1", "secret-one-0123456789abcdef0123456789");
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(identitySalt("cred_1", "secret-one-0123456789abcdef0123456789")).toBe(a);
    expect(identitySalt("cred_2", "secret-one-0123456789abcdef0123456789")).not.toBe(a);
    expect(identitySalt("cred_1", "secret-two-0123456789abcdef0123456789")).not.toBe(a);
  });

  it("hashes the lower-cased address followed by the salt, as Open Badges' example does", () => {
    // The specification's own example: 'a@example.com' salted with 'Kosher'.
    expect(emailIdentityHash("A@Example.com", "Kosher")).toBe("sha256$b5809d8a92f8858436d7e6b87c12ebc0ae1eac4baecc2c0b913aee2c922ef399");
  });
});
