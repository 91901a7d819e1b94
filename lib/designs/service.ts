// Design templates: create, update, read, list. Every change to the layout or its images writes a new
// immutable revision and bumps updatedAt, which is what versions preview URLs.
import { ApiError, invalidField, invalidFields, notFound } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { formatPath } from "../core/validation";
import { db } from "../db";
import { newId } from "../db/ids";
import { rawDate } from "../db/raw-values";
import { directRows } from "../db/direct-read";
import { DesignDocument, type DesignType } from "../render/document";
import { AssetError, decodeAssetDataUri, MAX_ASSETS_PER_DESIGN, type DecodedAsset } from "./assets";
import { customTagsInDocument, recordAttributeUse } from "../attributes/service";
import { defaultDocument } from "./defaults";
import { documentProblems } from "./document-problems";
import type { CreateDesignInput, UpdateDesignInput } from "./schema";
import { serializeDesign, designInclude, type ApiDesign, type DesignRow } from "./serialize";

export type OrganizationRef = { id: string; name: string };

async function decodeAssets(changes: Record<string, string | null> | undefined): Promise<Map<string, DecodedAsset | null>> {
  const decoded = new Map<string, DecodedAsset | null>();
  const problems: { path: string; message: string }[] = [];
  for (const [name, uri] of Object.entries(changes ?? {})) {
    if (uri === null) {
      decoded.set(name, null);
      continue;
    }
    try {
      decoded.set(name, await decodeAssetDataUri(uri));
    } catch (error) {
      if (!(error instanceof AssetError)) throw error;
      problems.push({ path: `assets.${name}`, message: error.message });
    }
  }
  if (problems.length) throw invalidFields(problems);
  return decoded;
}

/** Throws the API's validation error for a document that does not suit its design; paths start with `prefix`. */
export function checkDocument(doc: DesignDocument, type: DesignType, assetNames: ReadonlySet<string>, prefix: string[] = ["document"]) {
  const problems = documentProblems(doc, type, assetNames);
  if (problems.length) {
    throw invalidFields(problems.map((p) => ({ path: formatPath([...prefix, ...p.path]), message: p.message })));
  }
}

type DesignJoinRow = {
  id: string;
  name: string;
  type: string;
  createdAt: unknown;
  updatedAt: unknown;
  revisionId: string;
  document: string;
  assetIds: string;
};

// One join in plain SQL both engines accept (reading a design is hot: every credential's previews
// start here); asset metadata is a second query only for designs that have images.
export async function findDesign(organizationId: string, id: string): Promise<DesignRow> {
  // Past the Prisma client (lib/db/direct-read.ts): `GET /v1/designs/{id}` runs it on every call.
  const rows = await directRows<DesignJoinRow>`
    SELECT d."id", d."name", d."type", d."createdAt", d."updatedAt",
           r."id" AS "revisionId", r."document", r."assetIds"
    FROM "Design" d JOIN "DesignRevision" r ON r."id" = d."currentRevisionId"
    WHERE d."id" = ${id} AND d."organizationId" = ${organizationId}`;
  const row = rows[0];
  if (!row) throw notFound("Design");
  const assetIds = Object.values(JSON.parse(row.assetIds) as Record<string, string>);
  const assets = assetIds.length
    ? await db().designAsset.findMany({ where: { id: { in: assetIds } }, select: designInclude.assets.select })
    : [];
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    createdAt: rawDate(row.createdAt),
    updatedAt: rawDate(row.updatedAt),
    currentRevision: { id: row.revisionId, document: row.document, assetIds: row.assetIds },
    assets,
  };
}

export async function getDesign(org: OrganizationRef, id: string): Promise<ApiDesign> {
  return serializeDesign(await findDesign(org.id, id), org);
}

export async function listDesigns(org: OrganizationRef, options: { cursor?: string; limit: number }): Promise<Page<ApiDesign>> {
  const page = await newestFirstPage({
    scope: "designs",
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) =>
      db().design.findMany({ where: { organizationId: org.id, ...where }, orderBy, take, include: designInclude }),
    serialize: (row) => row,
  });
  return { data: await Promise.all(page.data.map((row) => serializeDesign(row, org))), pagination: page.pagination };
}

export async function createDesign(org: OrganizationRef, input: CreateDesignInput): Promise<ApiDesign> {
  const document = input.document ?? DesignDocument.parse(defaultDocument(input.type));
  const added = [...(await decodeAssets(input.assets))].filter((e): e is [string, DecodedAsset] => e[1] !== null);
  checkDocument(document, input.type, new Set(added.map(([name]) => name)));

  const designId = await insertDesign(org, {
    type: input.type,
    name: input.name,
    document,
    assets: added.map(([name, asset]) => ({ name, ...assetFields(asset) })),
  });
  return getDesign(org, designId);
}

/** What is stored of an image, besides its ids and name. */
type AssetFields = { mimeType: string; width: number; height: number; byteSize: number; sha256: string; data: Uint8Array<ArrayBuffer> };

function assetFields(asset: DecodedAsset): AssetFields {
  return {
    mimeType: asset.mimeType,
    width: asset.width,
    height: asset.height,
    byteSize: asset.data.length,
    sha256: asset.sha256,
    data: new Uint8Array(asset.data),
  };
}

/** One transaction: the design, its images and its first revision. Returns the new design's id. */
async function insertDesign(
  org: OrganizationRef,
  input: { type: string; name: string; document: DesignDocument; assets: (AssetFields & { name: string })[] },
): Promise<string> {
  const designId = newId("dsn");
  const revisionId = newId("rev");
  await db().$transaction(async (tx) => {
    await tx.design.create({ data: { id: designId, organizationId: org.id, type: input.type, name: input.name } });
    const assetIds: Record<string, string> = {};
    for (const asset of input.assets) {
      const assetId = newId("ast");
      assetIds[asset.name] = assetId;
      await tx.designAsset.create({ data: { ...asset, id: assetId, designId } });
    }
    await tx.designRevision.create({
      data: {
        id: revisionId,
        designId,
        documentVersion: input.document.version,
        document: JSON.stringify(input.document),
        assetIds: JSON.stringify(assetIds),
      },
    });
    await tx.design.update({ where: { id: designId }, data: { currentRevisionId: revisionId } });
    await recordAttributeUse(tx, org.id, customTagsInDocument(input.document));
  });
  return designId;
}

/**
 * A new design with a copy of another one's current layout and images (the dashboard's "start from"),
 * so an issuer can begin from a starter design without changing it.
 */
export async function duplicateDesign(org: OrganizationRef, sourceId: string, name: string): Promise<ApiDesign> {
  // findDesign joins the current revision, so the source has one.
  const source = await findDesign(org.id, sourceId);
  const revision = source.currentRevision!;
  const sourceAssetIds = JSON.parse(revision.assetIds) as Record<string, string>;
  const rows = await db().designAsset.findMany({ where: { id: { in: Object.values(sourceAssetIds) } } });
  const assets = Object.entries(sourceAssetIds).flatMap(([assetName, id]) => {
    const row = rows.find((r) => r.id === id);
    return row
      ? [
          {
            name: assetName,
            mimeType: row.mimeType,
            width: row.width,
            height: row.height,
            byteSize: row.byteSize,
            sha256: row.sha256,
            data: new Uint8Array(row.data),
          },
        ]
      : [];
  });
  const document = DesignDocument.parse(JSON.parse(revision.document));
  const designId = await insertDesign(org, { type: source.type, name, document, assets });
  return getDesign(org, designId);
}

class RevisionMoved extends Error {}

export type UpdateDesignOptions = {
  /**
   * The `updatedAt` the caller's edits are based on (the dashboard editor's). When the design has
   * moved on since, the update is refused with `conflict` instead of overwriting someone's changes.
   */
  expectedUpdatedAt?: string;
};

export async function updateDesign(
  org: OrganizationRef,
  id: string,
  input: UpdateDesignInput,
  options: UpdateDesignOptions = {},
): Promise<ApiDesign> {
  // Optimistic: the new revision is based on the one read; if another update moved the design on
  // meanwhile, start again from the newer one, so that changes to other parts (name, assets) are kept.
  // Images are decoded once (it is the slow part), on the first attempt that gets that far.
  let decoded: Promise<Map<string, DecodedAsset | null>> | undefined;
  const decodeChanges = () => (decoded ??= decodeAssets(input.assets));
  for (let attempt = 0; ; attempt++) {
    try {
      return await updateDesignOnce(org, id, input, options, decodeChanges);
    } catch (error) {
      if (!(error instanceof RevisionMoved) || attempt >= 4) throw error;
    }
  }
}

async function updateDesignOnce(
  org: OrganizationRef,
  id: string,
  input: UpdateDesignInput,
  options: UpdateDesignOptions,
  decodeChanges: () => Promise<Map<string, DecodedAsset | null>>,
): Promise<ApiDesign> {
  const current = await findDesign(org.id, id);
  if (options.expectedUpdatedAt !== undefined && current.updatedAt.toISOString() !== options.expectedUpdatedAt) {
    throw new ApiError("conflict", `This design was changed elsewhere at ${current.updatedAt.toISOString()}, after you opened it.`);
  }
  const type = current.type as DesignType;
  const changesLayout = input.document !== undefined || input.assets !== undefined;
  if (!changesLayout) {
    if (input.name !== undefined) await db().design.update({ where: { id }, data: { name: input.name } });
    return getDesign(org, id);
  }

  const revision = current.currentRevision;
  if (!revision) throw new Error(`design ${id} has no current revision`);
  const assetIds = JSON.parse(revision.assetIds) as Record<string, string>;
  const changes = await decodeChanges();
  const toCreate: [string, string, DecodedAsset][] = [];
  for (const [name, asset] of changes) {
    if (asset === null) {
      if (!(name in assetIds)) throw invalidField(`assets.${name}`, "no asset with this name to remove");
      delete assetIds[name];
      continue;
    }
    // Re-uploading identical bytes reuses the stored asset.
    const same = current.assets.find((a) => a.sha256 === asset.sha256 && a.name === name);
    if (same) assetIds[name] = same.id;
    else {
      assetIds[name] = newId("ast");
      toCreate.push([assetIds[name], name, asset]);
    }
  }
  const count = Object.keys(assetIds).length;
  if (count > MAX_ASSETS_PER_DESIGN)
    throw invalidField("assets", `a design holds at most ${MAX_ASSETS_PER_DESIGN} images; this would make it ${count}`);
  const document = input.document ?? DesignDocument.parse(JSON.parse(revision.document));
  checkDocument(document, type, new Set(Object.keys(assetIds)));

  const revisionId = newId("rev");
  await db().$transaction(async (tx) => {
    for (const [assetId, name, asset] of toCreate)
      await tx.designAsset.create({ data: { id: assetId, designId: id, name, ...assetFields(asset) } });
    await tx.designRevision.create({
      data: {
        id: revisionId,
        designId: id,
        documentVersion: document.version,
        document: JSON.stringify(document),
        assetIds: JSON.stringify(assetIds),
      },
    });
    const { count } = await tx.design.updateMany({
      where: { id, currentRevisionId: revision.id },
      data: { currentRevisionId: revisionId, ...(input.name !== undefined ? { name: input.name } : {}) },
    });
    if (count !== 1) throw new RevisionMoved();
    await recordAttributeUse(tx, org.id, customTagsInDocument(document));
  });
  return getDesign(org, id);
}
