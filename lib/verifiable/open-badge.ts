// The unsigned Open Badges 3.0 OpenBadgeCredential of one credential (docs/api.md, Verifiable credentials), built
// from plain values: no I/O, so the same inputs always give the same document, byte for byte, and
// its digest says exactly when the content changed.
import { achievementCriteria, achievementDescription } from "../groups/achievement";
import { OPEN_BADGES_V3_CONTEXT, VC_V2_CONTEXT } from "./contexts";
import { emailIdentityHash } from "./identity";

export type OpenBadgeSource = {
  /** The document's own URL, `{WALLET_URL}/credentials/<publicId>/credential.json`: its id. */
  documentUrl: string;
  credential: {
    /** `YYYY-MM-DD` */
    issueDate: string;
    /** `YYYY-MM-DD`, the last day it is valid; null: it does not expire. */
    expiryDate: string | null;
    recipientName: string;
    recipientEmail: string | null;
    /** The credential's stable salt for the email's identity hash (identity.ts). */
    identitySalt: string;
  };
  /** `profileUrl`: the public issuer profile page (name, verified domain, DID). */
  organization: { did: string; name: string; logoUrl: string | null; profileUrl: string };
  group: { achievementId: string; name: string; description: string | null; criteria: string | null };
  /** The first design's PNG preview, or null when the credential has none that can be drawn. */
  imageUrl: string | null;
  /** The credential's entry in its organization's revocation status list. */
  status: { listUrl: string; index: number };
};

export type OpenBadgeCredential = ReturnType<typeof buildOpenBadgeCredential>;

type IdentityObject = { type: "IdentityObject"; identityHash: string; identityType: string; hashed: boolean; salt?: string };

function image(url: string | null) {
  return url === null ? {} : { image: { id: url, type: "Image" as const } };
}

/**
 * Dates are calendar days (UTC, like every date of a credential): valid from the start of the issue
 * day to the end of the expiry day, as the wallet reads them (expired only once the day has passed).
 */
function validity(issueDate: string, expiryDate: string | null) {
  return { validFrom: `${issueDate}T00:00:00Z`, ...(expiryDate === null ? {} : { validUntil: `${expiryDate}T23:59:59Z` }) };
}

/**
 * The recipient, as Open Badges identifies one without a DID: by the salted hash of their email when
 * there is one, and by name (in plain text: it is on the credential's public page anyway). The name
 * is also `name`, which wallets display.
 */
function identifiers(credential: OpenBadgeSource["credential"]): IdentityObject[] {
  const byName: IdentityObject = { type: "IdentityObject", identityHash: credential.recipientName, identityType: "name", hashed: false };
  if (credential.recipientEmail === null) return [byName];
  return [
    {
      type: "IdentityObject",
      identityHash: emailIdentityHash(credential.recipientEmail, credential.identitySalt),
      identityType: "emailAddress",
      hashed: true,
      salt: credential.identitySalt,
    },
    byName,
  ];
}

/** The group as an Open Badges Achievement: what every credential of the group says it stands for. */
export function buildAchievement(group: OpenBadgeSource["group"], organization: { name: string }) {
  return {
    id: group.achievementId,
    type: ["Achievement"],
    name: group.name,
    description: achievementDescription(group, organization),
    criteria: { narrative: achievementCriteria(group, organization) },
  };
}

/**
 * The Achievement on its own, as served at its id so that the URI a credential names resolves: the
 * same fields as in the credential (as the group reads now), with the issuer as its creator.
 */
export function buildAchievementDocument(group: OpenBadgeSource["group"], organization: Omit<OpenBadgeSource["organization"], "logoUrl">) {
  return {
    "@context": [VC_V2_CONTEXT, OPEN_BADGES_V3_CONTEXT],
    ...buildAchievement(group, organization),
    creator: { id: organization.did, type: ["Profile"], name: organization.name, url: organization.profileUrl },
  };
}

export function buildOpenBadgeCredential(source: OpenBadgeSource) {
  const { credential, organization, group, status } = source;
  return {
    "@context": [VC_V2_CONTEXT, OPEN_BADGES_V3_CONTEXT],
    id: source.documentUrl,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: group.name,
    issuer: {
      id: organization.did,
      type: ["Profile"],
      name: organization.name,
      url: organization.profileUrl,
      ...image(organization.logoUrl),
    },
    ...validity(credential.issueDate, credential.expiryDate),
    ...image(source.imageUrl),
    credentialSubject: {
      type: ["AchievementSubject"],
      name: credential.recipientName,
      identifier: identifiers(credential),
      achievement: buildAchievement(group, organization),
    },
    credentialStatus: {
      id: `${status.listUrl}#${status.index}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(status.index),
      statusListCredential: status.listUrl,
    },
  };
}
