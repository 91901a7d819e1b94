// "Download all": one zip of every credential a recipient can download (issued or expired, not
// revoked), written by `archiver` as it is read. Each credential's files are made only when the
// archive has taken the previous one's, so memory holds one credential's files, never the archive,
// and a client that reads slowly slows the work down rather than piling it up. A client that goes
// away ends the work at the next file, quietly: that is not an error.
import type { Readable } from "node:stream";
import { ZipArchive } from "archiver";
import { todayUtc } from "../core/dates";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { log } from "../log";
import { drawableCredentialDesignDigest, shownCredentialDesigns } from "../previews/credential-designs";
import { previewBytes } from "../previews/service";
import { pdfWithSignedDocument } from "../verification/baked-download";
import { bakeCredentialIntoPng } from "../verification/png-baking";
import { ApiError } from "../core/errors";
import { organizationOpenBadgeCredential, type ServedDocument } from "../verifiable/service";
import { credentialFolder, designFileBases } from "./file-names";

export type ArchivedCredential = {
  id: string;
  publicId: string;
  title: string;
  organization: { id: string; name: string };
};

/** The credentials of `email` that offer downloads, newest first (as the wallet lists them). */
export async function downloadableCredentials(email: string): Promise<ArchivedCredential[]> {
  const rows = await db().credential.findMany({
    where: {
      // A scheduled credential whose day has come is issued (readStatus); revoked ones offer no download.
      OR: [{ status: "issued" }, { status: "scheduled", issueDate: { lte: todayUtc() } }],
      revokedAt: null,
      recipient: { emailNormalized: email },
    },
    orderBy: [{ issueDate: "desc" }, { createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      publicId: true,
      status: true,
      issueDate: true,
      expiryDate: true,
      group: { select: { name: true } },
      organization: { select: { id: true, name: true } },
    },
  });
  return rows
    .filter((row) => ["issued", "expired"].includes(readStatus(row)))
    .map((row) => ({ id: row.id, publicId: row.publicId, title: row.group.name, organization: row.organization }));
}

/** The archive's own name, for Content-Disposition. */
export const ARCHIVE_FILE_NAME = "credentials.zip";

class ArchiveClosed extends Error {}

/** A zip of `credentials`, produced while it is read. Destroying the stream (a client gone) stops the work. */
export function credentialsArchive(credentials: ArchivedCredential[]): Readable {
  // PNGs and PDFs are compressed already: stored as they are, only credential.json is deflated.
  const archive = new ZipArchive({ zlib: { level: 6 } });
  void fill(archive, credentials).catch((error: unknown) => {
    if (error instanceof ArchiveClosed) return;
    log.error("wallet_archive_failed", { message: error instanceof Error ? error.message : String(error) });
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return archive;
}

async function fill(archive: ZipArchive, credentials: ArchivedCredential[]): Promise<void> {
  for (const credential of credentials) {
    const files = await filesOf(credential);
    for (const file of files) await append(archive, file);
  }
  if (archive.destroyed) throw new ArchiveClosed();
  await archive.finalize();
}

type ArchiveFile = { name: string; bytes: Buffer; store: boolean };

/**
 * One credential's files: the signed document as `credential.json`, and for each design the renderer
 * can draw (the wallet page offers no download of the others either) its PDF with the signed document
 * embedded and its PNG with it baked in: the same files as the wallet page's downloads.
 */
async function filesOf(credential: ArchivedCredential): Promise<ArchiveFile[]> {
  const signed = await signedDocument(credential);
  // Deleted since the list was read: nothing to offer any more.
  if (!signed) return [];
  const folder = credentialFolder({
    publicId: credential.publicId,
    title: credential.title,
    organizationName: credential.organization.name,
  });
  const designs = (await shownCredentialDesigns(credential.organization, credential.id)).filter((d) => d.unsupportedText === null);
  const bases = designFileBases(credential.title, designs);
  const files: ArchiveFile[] = [{ name: `${folder}/credential.json`, bytes: Buffer.from(signed.json), store: false }];
  for (const design of designs) {
    const digest = await drawableCredentialDesignDigest(credential.organization, credential.id, design.id);
    if (!digest) continue;
    const base = `${folder}/${bases.get(design.id)}`;
    const [png, pdf] = [await previewBytes(digest, "png"), await previewBytes(digest, "pdf")];
    files.push({ name: `${base}.pdf`, bytes: Buffer.from(await pdfWithSignedDocument(pdf.bytes, signed.json)), store: true });
    files.push({ name: `${base}.png`, bytes: bakeCredentialIntoPng(png.bytes, signed.json), store: true });
  }
  return files;
}

/**
 * The signed document as the issuer's API serves it, not through the public route: the recipient's
 * private credentials are theirs to download too (privacy hides them from others, not from them).
 */
async function signedDocument(credential: ArchivedCredential): Promise<ServedDocument | null> {
  try {
    return await organizationOpenBadgeCredential(credential.organization, credential.id);
  } catch (error) {
    if (error instanceof ApiError && (error.code === "not_found" || error.code === "conflict")) return null;
    throw error;
  }
}

/** Appends one file and waits until the archive has taken it (which waits for the reader), or was closed. */
function append(archive: ZipArchive, file: ArchiveFile): Promise<void> {
  if (archive.destroyed) return Promise.reject(new ArchiveClosed());
  return new Promise((resolve, reject) => {
    const done = (outcome: () => void) => {
      archive.off("entry", onEntry);
      archive.off("close", onClose);
      archive.off("error", onClose);
      outcome();
    };
    const onEntry = (entry: { name: string }) => {
      if (entry.name === file.name) done(resolve);
    };
    const onClose = () => done(() => reject(new ArchiveClosed()));
    archive.on("entry", onEntry);
    archive.once("close", onClose);
    archive.once("error", onClose);
    archive.append(file.bytes, { name: file.name, store: file.store, date: new Date() });
  });
}
