// Design row → API shape. The spec's fields are always present; `document` and `assets` are ours,
// so a design can be read, edited and written back through the API.
import { designPreviewVersion, previewUrl, previewVersionKnown } from "../previews/versions";
import { processSingleton } from "../core/process-singleton";
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

/** What a design's answer derives from its current revision: its document, read once, and the sample preview's digest. */
type RevisionPart = { document: DesignDocument; digest: string };

/** Kept per process; the oldest is forgotten first. */
const MAX_KEPT_REVISIONS = 2_000;

/**
 * The parts of recent answers, per design revision and everything else its preview's digest depends on.
 * A revision is never changed once written (an edit writes a new one), so an entry cannot go stale:
 * a renamed design or organization, or an edit, makes another key. `GET /v1/designs/{id}` used to parse
 * the document and work out the digest on every call (bench:api: the largest part of its own CPU).
 */
function keptRevisionParts(): Map<string, RevisionPart> {
  return processSingleton("designs.revisionParts", () => new Map<string, RevisionPart>());
}

function revisionPartKey(row: DesignRow, revisionId: string, orgName: string): string {
  return JSON.stringify([revisionId, row.id, row.type, row.name, row.updatedAt.getTime(), orgName, config().walletUrl]);
}

/** A parsed document shared by the answers of every request: frozen, so that no caller can change another's. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

async function revisionPart(
  row: DesignRow,
  revision: NonNullable<DesignRow["currentRevision"]>,
  org: { name: string },
): Promise<RevisionPart> {
  const key = revisionPartKey(row, revision.id, org.name);
  const kept = keptRevisionParts().get(key);
  // Only while the digest's preview version is known stored: otherwise the full path stores it again.
  if (kept && previewVersionKnown(kept.digest)) return kept;
  // Stored documents were validated on the way in.
  const document = JSON.parse(revision.document) as DesignDocument;
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
  const part = { document: deepFreeze(document), digest };
  const parts = keptRevisionParts();
  if (parts.size >= MAX_KEPT_REVISIONS) parts.delete(parts.keys().next().value!);
  parts.set(key, part);
  return part;
}

export async function serializeDesign(row: DesignRow, org: { name: string }): Promise<ApiDesign> {
  const revision = row.currentRevision;
  if (!revision) throw new Error(`design ${row.id} has no current revision`);
  const { document, digest } = await revisionPart(row, revision, org);
  const assetIds = JSON.parse(revision.assetIds) as Record<string, string>;
  return {
    id: row.id,
    name: row.name,
    type: row.type as DesignType,
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
