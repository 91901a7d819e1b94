// The stored images a design revision draws, read for the renderer. Here rather than in lib/designs
// because previews render stored revisions and sit below the design service (which uses previews to
// hand out preview URLs); the design editor's draft preview reads them through here too.
import { db } from "../db";
import { assetsUsed, type DesignDocument } from "../render/document";
import type { RenderAsset } from "../render/render";

/** The images of a revision that `doc` draws, by the names the document uses, ready for the renderer. */
export async function revisionRenderAssets(assetIds: Record<string, string>, doc: DesignDocument): Promise<Map<string, RenderAsset>> {
  const used = Object.entries(assetIds).filter(([name]) => assetsUsed(doc).has(name));
  const rows = used.length ? await db().designAsset.findMany({ where: { id: { in: used.map(([, id]) => id) } } }) : [];
  const assets = new Map<string, RenderAsset>();
  for (const [name, id] of used) {
    const row = rows.find((r) => r.id === id);
    if (row) assets.set(name, { mimeType: row.mimeType as RenderAsset["mimeType"], data: row.data, width: row.width, height: row.height });
  }
  return assets;
}
