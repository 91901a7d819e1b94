// The design editor's live preview: an unsaved design document rendered by the same renderer as
// every credential, with the design's saved images and sample values. Nothing is stored: a draft
// has no digest and no URL until it is saved.
import { ApiError, invalidFields, notFound } from "../api/errors";
import { formatPath, safeParseWithDetails } from "../api/validation";
import { config } from "../config";
import { db } from "../db";
import { sampleAttributeValues } from "../render/attributes";
import { prepareRender, pngOf, UnsupportedTextError } from "../render/render";
import { attributesUsed, DesignDocument, documentProblems, type DesignType } from "./document";
import { revisionRenderAssets, type OrganizationRef } from "./service";

/** Wide enough to stay sharp on a 2x screen at the editor's canvas width, small enough to come back fast. */
export const DRAFT_PREVIEW_WIDTH_PX = 1400;

/**
 * Drafts rendering at once per organization (per process). The editor sends one at a time; more means
 * a script hammering the action, and each render is CPU the API's own previews need.
 */
export const MAX_DRAFT_RENDERS_PER_ORGANIZATION = 2;
const inFlight = new Map<string, number>();

export type DraftPreview = {
  png: Uint8Array;
  /** Problems that did not stop rendering: texts cut short, characters drawn as empty boxes. */
  warnings: string[];
};

export type DraftPreviewOptions = {
  /** A recipient name to try instead of the sample one (long names, other scripts). */
  recipientName?: string;
  widthPx?: number;
};

/**
 * Renders `input` as design `designId` of the organization would look once saved. Throws the API's
 * `validation_error` (paths relative to the document) when the document is not one `updateDesign`
 * would accept, so the editor shows the same messages the save would.
 */
export async function renderDraftDesign(org: OrganizationRef, designId: string, input: unknown, options: DraftPreviewOptions = {}): Promise<DraftPreview> {
  const design = await db().design.findFirst({
    where: { id: designId, organizationId: org.id },
    select: { type: true, currentRevision: { select: { assetIds: true } } },
  });
  if (!design?.currentRevision) throw notFound("Design");

  const parsed = safeParseWithDetails(DesignDocument, input);
  if (!parsed.ok) throw invalidFields(parsed.details);
  const document = parsed.data;
  const assetIds = JSON.parse(design.currentRevision.assetIds) as Record<string, string>;
  const problems = documentProblems(document, design.type as DesignType, new Set(Object.keys(assetIds)));
  if (problems.length) throw invalidFields(problems.map((p) => ({ path: formatPath(p.path), message: p.message })));

  const values = sampleAttributeValues(design.type as DesignType, {
    organizationName: org.name,
    walletUrl: config().walletUrl,
    attributes: attributesUsed(document),
  });
  const recipientName = options.recipientName?.trim();
  if (recipientName) values["recipient.name"] = recipientName.slice(0, 300);

  const running = inFlight.get(org.id) ?? 0;
  if (running >= MAX_DRAFT_RENDERS_PER_ORGANIZATION) throw new ApiError("rate_limited", "Too many previews at once; the next change will be previewed.");
  inFlight.set(org.id, running + 1);
  try {
    const assets = await revisionRenderAssets(assetIds);
    // Characters no font has are drawn as boxes and reported, so a person typing sees the problem in
    // place; right-to-left text still throws (it would render backwards).
    const prepared = await prepareRender(document, values, assets, { unsupportedText: "render" });
    return { png: await pngOf(prepared, options.widthPx ?? DRAFT_PREVIEW_WIDTH_PX), warnings: prepared.layout.warnings };
  } catch (error) {
    if (error instanceof UnsupportedTextError) {
      throw invalidFields([{ path: `elements[${error.elementIndex}].text`, message: error.message }]);
    }
    throw error;
  } finally {
    const left = (inFlight.get(org.id) ?? 1) - 1;
    if (left > 0) inFlight.set(org.id, left);
    else inFlight.delete(org.id);
  }
}
