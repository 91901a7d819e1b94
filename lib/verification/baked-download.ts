// The wallet's PNG download: the design's preview with the credential's signed Open Badges 3.0
// document baked in, so the file itself can be verified anywhere (docs/api.md, Verifiable credentials). Only for
// credentials whose wallet page offers downloads: issued or expired, not revoked.
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { drawableCredentialDesignDigest } from "../previews/credential-designs";
import { previewBytes } from "../previews/service";
import { publicOpenBadgeCredential } from "../verifiable/service";
import { bakeCredentialIntoPng } from "./png-baking";

const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The baked PNG of one design of a credential, or null where there is nothing to download. */
export async function bakedCredentialPng(publicId: string, designId: string): Promise<Buffer | null> {
  if (!PUBLIC_ID.test(publicId)) return null;
  const row = await db().credential.findUnique({
    where: { publicId },
    select: {
      id: true,
      status: true,
      issueDate: true,
      expiryDate: true,
      revokedAt: true,
      organization: { select: { id: true, name: true } },
    },
  });
  if (!row || row.revokedAt) return null;
  const status = readStatus(row);
  if (status !== "issued" && status !== "expired") return null;
  const digest = await drawableCredentialDesignDigest(row.organization, row.id, designId);
  if (!digest) return null;
  const [png, signed] = await Promise.all([previewBytes(digest, "png"), publicOpenBadgeCredential(publicId)]);
  if (!signed) return null;
  return bakeCredentialIntoPng(png.bytes, signed.json);
}
