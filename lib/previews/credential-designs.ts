// A credential's designs, in its group's order, each with digest-versioned PNG and PDF URLs. Handing
// out a URL stores its inputs, so the URL keeps answering with the same bytes after changes.
import { notFound } from "../core/errors";
import { credentialAttributeValues } from "../attribute-values/credential-values";
import { db, type SqlClient } from "../db";
import { canvasSize, type DesignDocument } from "../render/document";
import type { AttributeValues } from "../render/attributes";
import { unsupportedTextIn } from "../render/render";
import { designPreviewVersion, previewUrl } from "./versions";
import { processSingleton } from "../core/process-singleton";
import { FULL_PREVIEW_WIDTH } from "./service";
import { selectFirstGroupDesign } from "./queries";

export type CredentialDesign = { id: string; name: string; previews: { format: "png" | "pdf"; url: string }[] };

/**
 * For pages that show the previews: why they cannot be drawn (a 422 `unsupported_text`), or null, and
 * the full-size PNG's pixel size (the canvas's aspect ratio at 1600 px), so an <img> can reserve its
 * box before the image arrives.
 */
export type ShownCredentialDesign = CredentialDesign & { unsupportedText: string | null; pngSize: { width: number; height: number } };

/** The pixel size of a design's full-size preview PNG (the renderer fits the canvas to the width). */
export function previewPngSize(document: DesignDocument): { width: number; height: number } {
  const canvas = canvasSize(document.canvas);
  return { width: FULL_PREVIEW_WIDTH, height: Math.round((FULL_PREVIEW_WIDTH * canvas.height) / canvas.width) };
}

/** The API's view: the designs and their preview URLs. */
export async function credentialDesigns(organization: { id: string; name: string }, credentialId: string): Promise<CredentialDesign[]> {
  return (await designsOf(organization, credentialId)).map(({ design }) => design);
}

/**
 * The designs with, for each, whether its previews can be drawn: a recipient name in a right-to-left
 * script or with characters no bundled font has (emoji, Devanagari, ...) cannot be, and the wallet and
 * the dashboard then show the text themselves instead of a broken image.
 */
export async function shownCredentialDesigns(
  organization: { id: string; name: string },
  credentialId: string,
): Promise<ShownCredentialDesign[]> {
  const designs = await designsOf(organization, credentialId);
  return Promise.all(
    designs.map(async ({ design, document, values, digest }) => ({
      ...design,
      unsupportedText: await unsupportedTextOf(digest, document, values),
      pngSize: previewPngSize(document),
    })),
  );
}

/**
 * The digest of one design's previews of a credential, or null when the credential's group has no such
 * design or its text cannot be drawn: for routes that serve that PNG with more in it (the wallet's
 * baked download).
 */
export async function drawableCredentialDesignDigest(
  organization: { id: string; name: string },
  credentialId: string,
  designId: string,
): Promise<string | null> {
  const found = (await designsOf(organization, credentialId)).find(({ design }) => design.id === designId);
  if (!found) return null;
  return (await unsupportedTextOf(found.digest, found.document, found.values)) === null ? found.digest : null;
}

// A digest names one design revision with one set of values, so the answer never changes for it.
// Bounded, oldest first out: the wallet is public and every credential has its own digests.
const UNSUPPORTED_CACHE_SIZE = 2000;

async function unsupportedTextOf(digest: string, document: DesignDocument, values: AttributeValues): Promise<string | null> {
  const cache = processSingleton("previews.unsupportedText", () => new Map<string, string | null>());
  if (cache.has(digest)) return cache.get(digest)!;
  const problem = (await unsupportedTextIn(document, values))?.message ?? null;
  if (cache.size >= UNSUPPORTED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(digest, problem);
  return problem;
}

function previewMeta(
  credential: { recipientName: string },
  group: { name: string },
  organization: { name: string },
  values: AttributeValues,
) {
  return {
    title: `${group.name}: ${credential.recipientName}`,
    author: organization.name,
    subject: group.name,
    url: values["credential.url"] ?? null,
  };
}

/** The width of the certificate image in an email: its 560 px card less the padding. */
const EMAIL_IMAGE_WIDTH = 496;

/**
 * The PNG of the credential's first design for its email, with the size to show it at and its digest:
 * the same digest-versioned URL the wallet shows, stored within the caller's transaction. Null when the
 * group has no design. Whether the design can draw the credential's text is not decided here, inside
 * the issuing transaction, but by the mail worker when it writes the email (drawableCertificate).
 */
export async function emailCertificatePreview(
  tx: SqlClient,
  organization: { id: string; name: string },
  credential: {
    id: string;
    publicId: string;
    groupId: string;
    recipientName: string;
    issueDate: string;
    expiryDate: string | null;
    customAttributes: string;
  },
  group: { name: string },
): Promise<{ digest: string; revisionId: string; url: string; width: number; height: number } | null> {
  const first = await selectFirstGroupDesign(tx, credential.groupId);
  const revision = first?.revision;
  if (!first || !revision) return null;
  const document = JSON.parse(revision.document) as DesignDocument;
  const values = credentialAttributeValues({ credential, group, organization });
  const meta = previewMeta(credential, group, organization, values);
  const digest = await designPreviewVersion(
    { kind: "credential", design: first.design, revision, document, credentialId: credential.id, values, meta },
    tx,
  );
  const size = canvasSize(document.canvas);
  return {
    digest,
    revisionId: revision.id,
    url: previewUrl(digest, "png"),
    width: EMAIL_IMAGE_WIDTH,
    height: Math.round((EMAIL_IMAGE_WIDTH * size.height) / size.width),
  };
}

// Design revisions never change, so the mail worker reads each one's document once per process.
const REVISION_CACHE_SIZE = 200;

async function revisionDocument(revisionId: string): Promise<DesignDocument | null> {
  const cache = processSingleton("previews.revisionDocuments", () => new Map<string, DesignDocument>());
  const cached = cache.get(revisionId);
  if (cached) return cached;
  const revision = await db().designRevision.findUnique({ where: { id: revisionId }, select: { document: true } });
  if (!revision) return null;
  const document = JSON.parse(revision.document) as DesignDocument;
  if (cache.size >= REVISION_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(revisionId, document);
  return document;
}

/**
 * Whether an email's certificate image can be drawn (its text has characters some bundled font or
 * emoji image draws), from the design revision it was drawn from and the email's attribute values:
 * the same verdict the preview reaches, without reading the preview's stored inputs for every email.
 */
export async function drawableCertificate(certificate: { digest: string; revisionId: string }, values: AttributeValues): Promise<boolean> {
  const document = await revisionDocument(certificate.revisionId);
  return document !== null && (await unsupportedTextOf(certificate.digest, document, values)) === null;
}

type DesignWithInputs = { design: CredentialDesign; document: DesignDocument; values: AttributeValues; digest: string };

async function designsOf(organization: { id: string; name: string }, credentialId: string): Promise<DesignWithInputs[]> {
  const credential = await db().credential.findFirst({
    where: { id: credentialId, organizationId: organization.id },
    include: {
      group: {
        select: {
          name: true,
          designs: {
            orderBy: { position: "asc" },
            select: {
              design: { select: { id: true, name: true, updatedAt: true, currentRevision: { select: { id: true, document: true } } } },
            },
          },
        },
      },
    },
  });
  if (!credential) throw notFound("Credential");
  const values = credentialAttributeValues({ credential, group: credential.group, organization });
  const meta = previewMeta(credential, credential.group, organization, values);
  const result: DesignWithInputs[] = [];
  for (const { design } of credential.group.designs) {
    const revision = design.currentRevision;
    if (!revision) continue;
    const document = JSON.parse(revision.document) as DesignDocument;
    const digest = await designPreviewVersion({
      kind: "credential",
      design,
      revision,
      document,
      credentialId: credential.id,
      values,
      meta,
    });
    result.push({
      design: {
        id: design.id,
        name: design.name,
        previews: [
          { format: "png", url: previewUrl(digest, "png") },
          { format: "pdf", url: previewUrl(digest, "pdf") },
        ],
      },
      document,
      values,
      digest,
    });
  }
  return result;
}

/** A credential's first design's PNG preview: its URL and size. */
export type FirstDesignPng = { url: string; width: number; height: number };

/** What a list needs of each credential to name its first design's preview (no query per credential). */
export type CredentialForPreview = {
  id: string;
  publicId: string;
  groupId: string;
  recipientName: string;
  issueDate: string;
  expiryDate: string | null;
  customAttributes: string;
  group: { name: string };
  organization: { name: string };
};

/**
 * The PNG preview URL of each credential's first design (null when its group has none), for a list:
 * one query for the groups' first designs whatever the number of credentials, then the digests, which
 * cost no query once this process has handed them out (the same URLs the wallet page shows).
 */
export async function firstDesignPngUrls(credentials: CredentialForPreview[]): Promise<Map<string, string | null>> {
  const pngs = await firstDesignPngs(credentials);
  return new Map([...pngs].map(([id, png]) => [id, png?.url ?? null]));
}

/** As firstDesignPngUrls, with each PNG's size (for `width`/`height` attributes and Open Graph tags). */
export async function firstDesignPngs(credentials: CredentialForPreview[]): Promise<Map<string, FirstDesignPng | null>> {
  const groupIds = [...new Set(credentials.map((c) => c.groupId))];
  const rows = groupIds.length
    ? await db().groupDesign.findMany({
        where: { groupId: { in: groupIds } },
        orderBy: { position: "asc" },
        select: {
          groupId: true,
          design: { select: { id: true, updatedAt: true, currentRevision: { select: { id: true, document: true } } } },
        },
      })
    : [];
  const firstByGroup = new Map<string, { design: { id: string; updatedAt: Date }; revision: { id: string }; document: DesignDocument }>();
  for (const row of rows) {
    const revision = row.design.currentRevision;
    if (firstByGroup.has(row.groupId) || !revision) continue;
    firstByGroup.set(row.groupId, { design: row.design, revision, document: JSON.parse(revision.document) as DesignDocument });
  }
  const urls = new Map<string, FirstDesignPng | null>();
  for (const credential of credentials) {
    const first = firstByGroup.get(credential.groupId);
    if (!first) {
      urls.set(credential.id, null);
      continue;
    }
    const values = credentialAttributeValues({ credential, group: credential.group, organization: credential.organization });
    const meta = previewMeta(credential, credential.group, credential.organization, values);
    const digest = await designPreviewVersion({ kind: "credential", ...first, credentialId: credential.id, values, meta });
    urls.set(credential.id, { url: previewUrl(digest, "png"), ...previewPngSize(first.document) });
  }
  return urls;
}
