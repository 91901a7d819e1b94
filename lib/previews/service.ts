// Answers a digest-versioned preview URL: cached bytes when present, otherwise a render from the
// version's stored inputs (design revision, its assets, the values), cached for next time. Concurrent
// first requests for one URL share one render.
import { config } from "../config";
import { db } from "../db";
import type { DesignDocument } from "../render/document";
import { revisionRenderAssets } from "./revision-assets";
import { renderPdf, renderPng, UnsupportedTextError } from "../render/render";
import { previewStore } from "../storage";
import { processSingleton } from "../core/process-singleton";

export type PreviewFormat = "png" | "pdf";

export type PreviewBytes = { bytes: Buffer; contentType: string };

export class PreviewNotFound extends Error {}
export class PreviewUnrenderable extends Error {}

const CONTENT_TYPES: Record<PreviewFormat, string> = { png: "image/png", pdf: "application/pdf" };

function inFlight(): Map<string, Promise<Buffer>> {
  return processSingleton("previews.rendersInFlight", () => new Map<string, Promise<Buffer>>());
}

/**
 * The smaller PNG widths a preview URL also answers (`?w=<width>`), for pages that show a preview on a
 * narrow screen: a phone should not download the 1600 px image. A fixed set, so every variant is cached
 * like the full size and a URL cannot ask for a render of any size.
 */
export const PREVIEW_PNG_WIDTHS = [480, 800, 1200] as const;
export type PreviewPngWidth = (typeof PREVIEW_PNG_WIDTHS)[number];
/** The width of a preview PNG without `?w=` (docs/api.md, Previews: 1600 px). */
export const FULL_PREVIEW_WIDTH = 1600;

export function isPreviewPngWidth(value: number): value is PreviewPngWidth {
  return (PREVIEW_PNG_WIDTHS as readonly number[]).includes(value);
}

export function previewKey(digest: string, format: PreviewFormat, width?: PreviewPngWidth): string {
  return `${digest.slice(0, 2)}/${digest}${width ? `.w${width}` : ""}.${format}`;
}

/** Every file a digest may have in the preview store: both formats and each PNG width (for deletes). */
export function previewKeys(digest: string): string[] {
  return [previewKey(digest, "png"), previewKey(digest, "pdf"), ...PREVIEW_PNG_WIDTHS.map((w) => previewKey(digest, "png", w))];
}

async function renderVersion(digest: string, format: PreviewFormat, width?: PreviewPngWidth): Promise<Buffer> {
  const version = await db().previewVersion.findUnique({
    where: { digest },
    include: { designRevision: { select: { document: true, assetIds: true } } },
  });
  if (!version) throw new PreviewNotFound();
  const document = JSON.parse(version.designRevision.document) as DesignDocument;
  const assets = await revisionRenderAssets(JSON.parse(version.designRevision.assetIds) as Record<string, string>, document);
  const values = JSON.parse(version.values) as Record<string, string | null>;
  const meta = JSON.parse(version.meta) as { title?: string; author?: string; subject?: string; url?: string | null };
  try {
    const bytes =
      format === "png"
        ? await renderPng(document, values, assets, { widthPx: width ?? FULL_PREVIEW_WIDTH })
        : await renderPdf(document, values, assets, {
            title: meta.title ?? "",
            author: meta.author ?? "",
            subject: meta.subject ?? "",
            url: meta.url ?? null,
          });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (error instanceof UnsupportedTextError) throw new PreviewUnrenderable(error.message);
    throw error;
  }
}

/** The preview's bytes; `width` (PNG only) asks for one of the smaller widths. */
export async function previewBytes(digest: string, format: PreviewFormat, width?: PreviewPngWidth): Promise<PreviewBytes> {
  if (width && format !== "png") throw new Error("only PNG previews come in other widths");
  const key = previewKey(digest, format, width);
  const cached = await previewStore().get(key);
  if (cached) {
    // Several hosts may serve one PostgreSQL database, each with its own DATA_DIR: a credential deleted
    // through another host took its version row with it but could only delete that host's files, so
    // a file here answers only while its version exists. (One SQLite process deletes its own files.)
    if (
      config().databaseProvider === "postgresql" &&
      !(await db().previewVersion.findUnique({ where: { digest }, select: { id: true } }))
    ) {
      await previewStore().delete([previewKey(digest, "png"), previewKey(digest, "pdf")]);
      throw new PreviewNotFound();
    }
    return { bytes: cached, contentType: CONTENT_TYPES[format] };
  }
  let pending = inFlight().get(key);
  if (!pending) {
    pending = renderVersion(digest, format, width)
      .then(async (bytes) => {
        await previewStore().put(key, bytes);
        // A delete of the credential may have run while this rendered, and removed the files before
        // this one was written: then the file must go too, or it would keep answering.
        if (!(await db().previewVersion.findUnique({ where: { digest }, select: { id: true } }))) {
          await previewStore().delete([key]);
          throw new PreviewNotFound();
        }
        return bytes;
      })
      .finally(() => inFlight().delete(key));
    inFlight().set(key, pending);
  }
  return { bytes: await pending, contentType: CONTENT_TYPES[format] };
}
