// The public wallet's view of a credential: what a recipient or a guest may see at
// {WALLET_URL}/credentials/<publicId>, only for issued and expired credentials (revoked ones included:
// a revoked credential's page stays public, to say that it was revoked).
import { z } from "zod";
import { walletUrl } from "../attribute-values/credential-values";
import { achievementCriteria, achievementDescription } from "../groups/achievement";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { isSupportedLocale, type Locale } from "../i18n/locales";
import { shownCredentialDesigns, type ShownCredentialDesign } from "../previews/credential-designs";

export type WalletCredential = {
  id: string;
  publicId: string;
  status: "issued" | "expired";
  recipientName: string;
  groupName: string;
  learningEventUrl: string | null;
  /** What the credential stands for and how it was earned: the group's texts or their defaults (as signed). */
  description: string;
  criteria: string;
  /** `linkedinOrganizationId`: the issuer's LinkedIn company page, for "Add to profile" (null when not set). */
  organization: { id: string; name: string; hasLogo: boolean; linkedinOrganizationId: string | null };
  issueDate: string;
  expiryDate: string | null;
  /** Set when the issuer revoked it (final): when (ISO date-time) and why (their text, or null). */
  revocation: { revokedAt: string; reason: string | null } | null;
  url: string;
  /** In the group's order; a design whose previews cannot be drawn says why in `unsupportedText`. */
  designs: ShownCredentialDesign[];
  /** The language its group fixes for its page (lib/i18n/locales.ts), or null: the reader's own. */
  language: Locale | null;
  /** The recipient's choice in their wallet: a private credential is shown to its signed-in recipient only. */
  visibility: "public" | "private";
};

const publicIdSchema = z.uuid();

/** The credential behind a wallet link, or null when there is none to show (unknown, draft, scheduled, deleted). */
export async function findWalletCredential(publicId: string): Promise<WalletCredential | null> {
  if (!publicIdSchema.safeParse(publicId).success) return null;
  const row = await db().credential.findUnique({
    where: { publicId },
    select: {
      id: true,
      publicId: true,
      status: true,
      recipientName: true,
      issueDate: true,
      expiryDate: true,
      revokedAt: true,
      revocationReason: true,
      visibility: true,
      group: { select: { name: true, learningEventUrl: true, description: true, criteria: true, language: true } },
      organization: { select: { id: true, name: true, logoMimeType: true, linkedinOrganizationId: true } },
    },
  });
  if (!row) return null;
  const status = readStatus(row);
  if (status !== "issued" && status !== "expired") return null;
  return {
    id: row.id,
    publicId: row.publicId,
    status,
    recipientName: row.recipientName,
    groupName: row.group.name,
    learningEventUrl: row.group.learningEventUrl,
    description: achievementDescription(row.group, row.organization),
    criteria: achievementCriteria(row.group, row.organization),
    organization: {
      id: row.organization.id,
      name: row.organization.name,
      hasLogo: row.organization.logoMimeType !== null,
      linkedinOrganizationId: row.organization.linkedinOrganizationId,
    },
    issueDate: row.issueDate,
    expiryDate: row.expiryDate,
    revocation: row.revokedAt ? { revokedAt: row.revokedAt.toISOString(), reason: row.revocationReason } : null,
    url: walletUrl(row.publicId),
    designs: await shownCredentialDesigns(row.organization, row.id),
    language: isSupportedLocale(row.group.language) ? row.group.language : null,
    visibility: row.visibility === "private" ? "private" : "public",
  };
}
