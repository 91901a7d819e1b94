// Preview versions (docs/api.md, Previews): a digest names one rendering — a design revision plus the
// resolved values of exactly the attributes that design renders. The digest and its inputs are stored
// when a URL is handed out, so the URL answers with the same bytes forever.
import { createHash } from "node:crypto";
import { config } from "../config";
import { db, type SqlClient } from "../db";
import { newId } from "../db/ids";
import { attributesUsed, type DesignDocument } from "../render/document";
import { processSingleton } from "../core/process-singleton";
import { insertPreviewVersionUnlessStored } from "./queries";

export type PreviewInputs = {
  kind: "credential" | "design-sample";
  designId: string;
  designRevisionId: string;
  /** The design's last update time: the spec's versioning input. */
  designUpdatedAt: Date;
  credentialId: string | null;
  /** Resolved values of the attributes the design renders, and only those. */
  values: Record<string, string | null>;
};

/** PDF metadata stored with a version (not part of its digest). */
export type PreviewMeta = { title: string; author: string; subject: string; url: string | null };

function canonicalValues(values: Record<string, string | null>): [string, string | null][] {
  return Object.keys(values)
    .sort()
    .map((k) => [k, values[k] ?? null]);
}

export function previewDigest(inputs: PreviewInputs): string {
  const canonical = JSON.stringify([
    inputs.kind,
    inputs.designId,
    inputs.designRevisionId,
    inputs.designUpdatedAt.toISOString(),
    inputs.credentialId,
    canonicalValues(inputs.values),
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 40);
}

export function previewUrl(digest: string, format: "png" | "pdf"): string {
  return `${config().publicUrl}/previews/${digest}.${format}`;
}

// Digests this process has already stored: handing out a known URL again costs no query.
function knownDigests(): Set<string> {
  const known = processSingleton("previews.knownDigests", () => new Set<string>());
  if (known.size > 100_000) known.clear();
  return known;
}

/** Whether this process has stored (or found stored) the version with this digest. */
export function previewVersionKnown(digest: string): boolean {
  return knownDigests().has(digest);
}

/** Stores the version's inputs (once) and returns its digest. */
export async function ensurePreviewVersion(inputs: PreviewInputs, meta: PreviewMeta, client: SqlClient = db()): Promise<string> {
  const digest = previewDigest(inputs);
  if (knownDigests().has(digest)) return digest;
  // One statement: a digest another request stored first has the same inputs, nothing to do.
  await insertPreviewVersionUnlessStored(client, {
    id: newId("pv"),
    digest,
    kind: inputs.kind,
    designId: inputs.designId,
    designRevisionId: inputs.designRevisionId,
    credentialId: inputs.credentialId,
    values: JSON.stringify(Object.fromEntries(canonicalValues(inputs.values))),
    meta: JSON.stringify(meta),
    createdAt: new Date(),
  });
  knownDigests().add(digest);
  return digest;
}

/**
 * The version of one design revision filled with a set of attribute values. The one place that
 * decides what feeds a digest: the attributes the design renders, and only those.
 */
export async function designPreviewVersion(
  input: {
    kind: PreviewInputs["kind"];
    design: { id: string; updatedAt: Date };
    revision: { id: string };
    document: DesignDocument;
    credentialId: string | null;
    values: Record<string, string | null | undefined>;
    meta: PreviewMeta;
  },
  client: SqlClient = db(),
): Promise<string> {
  const used = attributesUsed(input.document);
  return ensurePreviewVersion(
    {
      kind: input.kind,
      designId: input.design.id,
      designRevisionId: input.revision.id,
      designUpdatedAt: input.design.updatedAt,
      credentialId: input.credentialId,
      values: Object.fromEntries(used.map((name) => [name, input.values[name] ?? null])),
    },
    input.meta,
    client,
  );
}

/** Forgets digests (after a credential's versions are deleted). */
export function forgetPreviewDigests(digests: Iterable<string>) {
  for (const d of digests) knownDigests().delete(d);
}
