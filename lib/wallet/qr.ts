// The wallet link as a QR code, for a recipient to print or show (a poster, a slide, a CV): an SVG to
// show on the page and a PNG to download. It encodes the canonical wallet URL only, never
// `?recipient=true` (no link the page offers carries it: docs/api.md, The wallet page).
import QRCode from "qrcode";
import { z } from "zod";
import { walletUrl } from "../attribute-values/credential-values";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";

/** Pixels per side of the downloadable PNG: sharp enough to print a few centimetres wide. */
export const QR_PNG_SIZE = 1024;

const options = { errorCorrectionLevel: "M", margin: 4, color: { dark: "#111827", light: "#ffffff" } } as const;

/** The credential's canonical wallet URL, when it has a public wallet page (issued or expired, revoked ones too). */
async function publicWalletUrl(publicId: string): Promise<string | null> {
  if (!z.uuid().safeParse(publicId).success) return null;
  const row = await db().credential.findUnique({
    where: { publicId },
    select: { publicId: true, status: true, issueDate: true, expiryDate: true },
  });
  if (!row) return null;
  const status = readStatus(row);
  return status === "issued" || status === "expired" ? walletUrl(row.publicId) : null;
}

export async function walletQrSvg(publicId: string): Promise<string | null> {
  const url = await publicWalletUrl(publicId);
  return url ? QRCode.toString(url, { ...options, type: "svg" }) : null;
}

export async function walletQrPng(publicId: string): Promise<Buffer | null> {
  const url = await publicWalletUrl(publicId);
  return url ? QRCode.toBuffer(url, { ...options, type: "png", width: QR_PNG_SIZE }) : null;
}
