// The documents' shapes, for the OpenAPI reference (they are built by open-badge.ts and
// status-list.ts, never parsed from requests).
import { z } from "zod";

const image = z.object({ id: z.string(), type: z.literal("Image") });
const identityObject = z.object({
  type: z.literal("IdentityObject"),
  identityHash: z
    .string()
    .describe("`sha256$<hex>` of the lower-cased email followed by `salt` (hashed), or the recipient's name (not hashed)."),
  identityType: z.enum(["emailAddress", "name"]),
  hashed: z.boolean(),
  salt: z.string().optional(),
});
const dataIntegrityProof = z.object({
  type: z.literal("DataIntegrityProof"),
  cryptosuite: z.literal("eddsa-rdfc-2022"),
  created: z.string(),
  verificationMethod: z.string().describe("`<issuer DID>#<key id>`, listed in the DID document at `/organizations/<slug>/did.json`."),
  proofPurpose: z.literal("assertionMethod"),
  proofValue: z.string(),
});

export const OpenBadgeCredentialResponse = z
  .object({
    "@context": z
      .array(z.string())
      .describe("`https://www.w3.org/ns/credentials/v2`, `https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json`"),
    id: z.string().describe("The document's public URL, `{WALLET_URL}/credentials/<publicId>/credential.json`."),
    type: z.array(z.string()).describe('`["VerifiableCredential","OpenBadgeCredential"]`'),
    name: z.string().describe("The group's name."),
    issuer: z.object({
      id: z.string().describe("The organization's did:web DID."),
      type: z.array(z.string()),
      name: z.string(),
      url: z.string().describe("The public issuer profile page: name, verified domain, DID."),
      image: image.optional(),
    }),
    validFrom: z.string().describe("The issue date, at 00:00:00Z."),
    validUntil: z.string().optional().describe("The expiry date, at 23:59:59Z; absent when the credential does not expire."),
    image: image.optional().describe("The first design's PNG preview."),
    credentialSubject: z.object({
      type: z.array(z.string()),
      name: z.string(),
      identifier: z.array(identityObject),
      achievement: z.object({
        id: z.string(),
        type: z.array(z.string()),
        name: z.string(),
        description: z.string(),
        criteria: z.object({ narrative: z.string() }),
      }),
    }),
    credentialStatus: z.object({
      id: z.string(),
      type: z.literal("BitstringStatusListEntry"),
      statusPurpose: z.literal("revocation"),
      statusListIndex: z.string(),
      statusListCredential: z.string().describe("`{PUBLIC_URL}/organizations/<slug>/status/<number>`"),
    }),
    proof: z
      .array(dataIntegrityProof)
      .min(1)
      .describe("One DataIntegrityProof, in an array (1EdTech's Open Badges 3.0 schema requires the array)."),
  })
  .describe("A signed Open Badges 3.0 OpenBadgeCredential (W3C Verifiable Credentials Data Model 2.0).");

export const StatusListCredentialResponse = z
  .object({
    "@context": z.array(z.string()),
    id: z.string(),
    type: z.array(z.string()).describe('`["VerifiableCredential","BitstringStatusListCredential"]`'),
    issuer: z.string(),
    validFrom: z.string(),
    credentialSubject: z.object({
      id: z.string(),
      type: z.literal("BitstringStatusList"),
      statusPurpose: z.literal("revocation"),
      encodedList: z
        .string()
        .describe("Multibase base64url (`u` prefix) of the GZIP-compressed bitstring; bit i (left-most first) set: entry i revoked."),
    }),
    proof: z
      .array(dataIntegrityProof)
      .min(1)
      .describe("One DataIntegrityProof, in an array (1EdTech's Open Badges 3.0 schema requires the array)."),
  })
  .describe("A signed Bitstring Status List v1.0 credential.");
