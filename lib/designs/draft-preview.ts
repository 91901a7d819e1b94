// The design editor's live preview: an unsaved design document rendered by the same renderer as
// every credential, with the design's saved images and sample values. Nothing is stored: a draft
// has no digest and no URL until it is saved.
import { ApiError, invalidField, invalidFields } from "../core/errors";
import { TokenBucketLimiter } from "../rate-limit/token-buckets";
import { safeParseWithDetails } from "../core/validation";
import { config } from "../config";
import { sampleAttributeValues } from "../render/attributes";
import { prepareRender, pngOf, UnsupportedTextError } from "../render/render";
import { attributesUsed, DesignDocument, type DesignType } from "../render/document";
import { revisionRenderAssets } from "../previews/revision-assets";
import { checkDocument, findDesign, type OrganizationRef } from "./service";

/** Wide enough to stay sharp on a 2x screen at the editor's canvas width, small enough to come back fast. */
export const DRAFT_PREVIEW_WIDTH_PX = 1400;

/**
 * Renders are CPU on the server's main thread, shared with the API and the wallet. The editor asks
 * for at most about 4 a second (one per 250 ms pause) per open editor; these bounds let a few people
 * of one organization edit at once and stop a script from hammering the action. Per process.
 */
export const DRAFT_RENDERS_AT_ONCE_PER_ORGANIZATION = 2;
const limiter = new TokenBucketLimiter(8, 16);
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

function busy(retryAfterSeconds: number): ApiError {
  return new ApiError("rate_limited", "Too many previews at once; this one follows in a moment.", {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/**
 * Renders `input` as design `designId` of the organization would look once saved. Throws the API's
 * `validation_error` (paths relative to the document) when the document is not one `updateDesign`
 * would accept, so the editor shows the messages a save would give. A problem that comes from the
 * tried recipient name alone (right-to-left script) is reported on `recipientName` instead: saving
 * is not affected by it.
 */
export async function renderDraftDesign(
  org: OrganizationRef,
  designId: string,
  input: unknown,
  options: DraftPreviewOptions = {},
): Promise<DraftPreview> {
  const design = await findDesign(org.id, designId);
  const type = design.type as DesignType;
  const parsed = safeParseWithDetails(DesignDocument, input);
  if (!parsed.ok) throw invalidFields(parsed.details);
  const document = parsed.data;
  const assetIds = JSON.parse(design.currentRevision!.assetIds) as Record<string, string>;
  checkDocument(document, type, new Set(Object.keys(assetIds)), []);

  const values = sampleAttributeValues(type, {
    organizationName: org.name,
    walletUrl: config().walletUrl,
    attributes: attributesUsed(document),
  });
  const recipientName = options.recipientName?.trim().slice(0, 200);
  if (recipientName) values["recipient.name"] = recipientName;

  const rate = limiter.take(org.id);
  if (!rate.allowed) throw busy(rate.retryAfterSeconds);
  const running = inFlight.get(org.id) ?? 0;
  if (running >= DRAFT_RENDERS_AT_ONCE_PER_ORGANIZATION) throw busy(1);
  inFlight.set(org.id, running + 1);
  try {
    const assets = await revisionRenderAssets(assetIds, document);
    // Characters no font has are drawn as boxes and reported, so a person typing sees the problem in
    // place; right-to-left text still throws (it would render backwards).
    const prepared = await prepareRender(document, values, assets, { unsupportedText: "render" });
    return { png: await pngOf(prepared, options.widthPx ?? DRAFT_PREVIEW_WIDTH_PX), warnings: prepared.layout.warnings };
  } catch (error) {
    if (error instanceof UnsupportedTextError) {
      if (recipientName && error.attributes.includes("recipient.name")) throw invalidField("recipientName", error.message);
      throw invalidFields([{ path: `elements[${error.elementIndex}].text`, message: error.message }]);
    }
    throw error;
  } finally {
    const left = (inFlight.get(org.id) ?? 1) - 1;
    if (left > 0) inFlight.set(org.id, left);
    else inFlight.delete(org.id);
  }
}
