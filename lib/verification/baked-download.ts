// The wallet's PNG download: the design's preview with the credential's signed Open Badges 3.0
// document baked in, so the file itself can be verified anywhere (docs/api.md, Verifiable credentials). Only for
// credentials whose wallet page offers downloads: issued or expired, not revoked. The PDF download
// carries the same document as an embedded file.
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { drawableCredentialDesignDigest } from "../previews/credential-designs";
import { previewBytes } from "../previews/service";
import { publicOpenBadgeCredential } from "../verifiable/service";
import { embedCredentialInPdf } from "./pdf-embedding";
import { bakeCredentialIntoPng } from "./png-baking";

const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The design's drawn preview digest when the wallet offers this credential's downloads; else null. */
async function downloadableDesign(publicId: string, designId: string): Promise<{ digest: string } | null> {
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
  return digest ? { digest } : null;
}

/** The baked PNG of one design of a credential, or null where there is nothing to download. */
export async function bakedCredentialPng(publicId: string, designId: string): Promise<Buffer | null> {
  const downloadable = await downloadableDesign(publicId, designId);
  if (!downloadable) return null;
  const [png, signed] = await Promise.all([previewBytes(downloadable.digest, "png"), publicOpenBadgeCredential(publicId)]);
  if (!signed) return null;
  return bakeCredentialIntoPng(png.bytes, signed.json);
}

/**
 * The PDF of one design of a credential with its signed document embedded as `credential.json`, or
 * null where there is nothing to download (pdf-embedding.ts).
 *
 * Composed here, at download time, from the design's preview PDF and the credential's current signed
 * document, rather than made part of the preview: previews are immutable files named by the digest of
 * what is drawn, shared by every request for the same picture, while the signed document follows its
 * own versioning (a content digest, re-signed on changes the picture may not show). Keeping the two
 * apart leaves both caches exact; the attachment costs one pdf-lib load and save per download.
 */
export async function credentialPdfWithDocument(publicId: string, designId: string): Promise<Uint8Array | null> {
  const downloadable = await downloadableDesign(publicId, designId);
  if (!downloadable) return null;
  const [pdf, signed] = await Promise.all([previewBytes(downloadable.digest, "pdf"), publicOpenBadgeCredential(publicId)]);
  if (!signed) return null;
  return pdfWithSignedDocument(pdf.bytes, signed.json);
}

/**
 * A design's preview PDF with the signed document embedded, dated when the document was signed: the
 * one recipe for every PDF a recipient downloads (one at a time or all in one archive).
 */
export function pdfWithSignedDocument(pdf: Uint8Array, signedJson: string): Promise<Uint8Array> {
  return embedCredentialInPdf(pdf, signedJson, signedAt(signedJson));
}

/** When the document was signed (its proof's `created`), as the attachment's date. */
function signedAt(json: string): Date {
  const proof = (JSON.parse(json) as { proof?: { created?: string }[] }).proof?.[0];
  const created = proof?.created ? new Date(proof.created) : null;
  return created && !Number.isNaN(created.getTime()) ? created : new Date(0);
}
