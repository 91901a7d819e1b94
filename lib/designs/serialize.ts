// Design row → API shape. The spec's fields are always present; `document` and `assets` are ours,
// so a design can be read, edited and written back through the API.
import { designPreviewVersion, previewUrl } from "../previews/versions";
import { attributesUsed, type DesignDocument, type DesignType } from "../render/document";
import { config } from "../config";
import { sampleAttributeValues } from "../render/attributes";

export const designInclude = {
  currentRevision: true,
  assets: { select: { id: true, name: true, mimeType: true, width: true, height: true, byteSize: true, sha256: true } },
} as const;

export type DesignRow = {
  id: string;
  name: string;
  type: string;
  createdAt: Date;
  updatedAt: Date;
  currentRevision: { id: string; document: string; assetIds: string } | null;
  assets: { id: string; name: string; mimeType: string; width: number; height: number; byteSize: number; sha256: string }[];
};

export type ApiDesign = {
  id: string;
  name: string;
  type: DesignType;
  previewUrl: string;
  createdAt: string;
  updatedAt: string;
  document: DesignDocument;
  assets: { name: string; mimeType: string; width: number; height: number; byteSize: number }[];
};

export async function serializeDesign(row: DesignRow, org: { name: string }): Promise<ApiDesign> {
  const revision = row.currentRevision;
  if (!revision) throw new Error(`design ${row.id} has no current revision`);
  // Stored documents were validated on the way in.
  const document = JSON.parse(revision.document) as DesignDocument;
  const assetIds = JSON.parse(revision.assetIds) as Record<string, string>;
  const type = row.type as DesignType;
  const digest = await designPreviewVersion({
    kind: "design-sample",
    design: row,
    revision,
    document,
    credentialId: null,
    values: sampleAttributeValues(type, {
      organizationName: org.name,
      walletUrl: config().walletUrl,
      attributes: attributesUsed(document),
    }),
    meta: { title: `${row.name} (sample)`, author: org.name, subject: row.name, url: null },
  });
  return {
    id: row.id,
    name: row.name,
    type,
    previewUrl: previewUrl(digest, "png"),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    document,
    assets: Object.entries(assetIds).flatMap(([name, id]) => {
      const a = row.assets.find((x) => x.id === id);
      return a ? [{ name, mimeType: a.mimeType, width: a.width, height: a.height, byteSize: a.byteSize }] : [];
    }),
  };
}
