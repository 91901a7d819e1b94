// The design editor's live preview: an unsaved design document rendered by the same renderer as
// every credential, with the design's saved images and sample values. Nothing is stored: a draft
// has no digest and no URL until it is saved.
import { ApiError, invalidField, invalidFields } from "../core/errors";
import { TokenBucketLimiter } from "../rate-limit/token-buckets";
import { safeParseWithDetails } from "../core/validation";
import { config } from "../config";
import { sampleAttributeValues } from "../render/attributes";
import { layoutDocument, overflowWarning, prepareRender, pngOf, UnsupportedTextError } from "../render/render";
import { attributesUsed, DesignDocument, placeholdersIn, type DesignType } from "../render/document";
import { revisionRenderAssets } from "../previews/revision-assets";
import { db } from "../db";
import { LONG_GROUP_NAMES, LONG_RECIPIENT_NAMES, longestOf } from "./long-samples";
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

/** A text element that does not fit its box with the sample values. */
export type TextOverflow = {
  index: number;
  /** The recipient name it overflows with (the picture's, or another long sample name laid out unseen). */
  recipientName: string;
};

export type DraftPreview = {
  png: Uint8Array;
  /** Problems that did not stop rendering: texts cut short, characters drawn as empty boxes. */
  warnings: string[];
  /** Texts cut short with the picture's values or with any of the long sample names, once each. */
  overflows: TextOverflow[];
  /** The values the picture shows, for the editor to say what it previews with. */
  sample: { recipientName: string; groupName: string };
};

export type DraftPreviewOptions = {
  /** A recipient name to try instead of the long sample ones (a real name, another script). */
  recipientName?: string;
  widthPx?: number;
};

/** How many templates' names are looked at for the longest credential name. */
const GROUP_NAMES_LOOKED_AT = 500;

/** The longest credential (template) name among the organization's templates that use the design. */
async function longestGroupName(organizationId: string, designId: string): Promise<string | null> {
  const rows = await db().groupDesign.findMany({
    where: { designId, group: { organizationId } },
    select: { group: { select: { name: true } } },
    take: GROUP_NAMES_LOOKED_AT,
  });
  return longestOf(rows.map((r) => r.group.name));
}

/**
 * The texts that overflow with one of the other long sample names, beyond those the picture shows
 * (`seen`). Laid out only (no outlines, no picture), and only when a text shows the name.
 */
async function overflowsWithOtherNames(
  document: DesignDocument,
  values: Record<string, string | null>,
  seen: Set<number>,
): Promise<TextOverflow[]> {
  // Only the texts that show the name can change with it.
  const showing = new Set(
    document.elements.flatMap((el, i) => (el.type === "text" && placeholdersIn(el.text).includes("recipient.name") ? [i] : [])),
  );
  if (showing.size === 0) return [];
  const found: TextOverflow[] = [];
  for (const recipientName of LONG_RECIPIENT_NAMES.slice(1)) {
    const withName = { ...values, "recipient.name": recipientName };
    const layout = await layoutDocument(document, withName, { unsupportedText: "render", only: showing });
    for (const index of layout.overflows) {
      if (seen.has(index)) continue;
      seen.add(index);
      found.push({ index, recipientName });
    }
  }
  return found;
}

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
  // The preview shows the longest values a credential is likely to have, so a box too small for
  // them shows now rather than on a recipient's certificate.
  const recipientName = options.recipientName?.trim().slice(0, 200);
  values["recipient.name"] = recipientName || LONG_RECIPIENT_NAMES[0];
  values["group.name"] = (await longestGroupName(org.id, design.id)) ?? LONG_GROUP_NAMES[type];

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
    const shown = values["recipient.name"];
    const overflows = prepared.layout.overflows.map((index) => ({ index, recipientName: shown }));
    // A name typed in the editor is the one to check; otherwise every long sample name is.
    if (!recipientName) overflows.push(...(await overflowsWithOtherNames(document, values, new Set(prepared.layout.overflows))));
    return {
      png: await pngOf(prepared, options.widthPx ?? DRAFT_PREVIEW_WIDTH_PX),
      // The overflows are reported on their own (with the name they overflow with), not twice.
      warnings: prepared.layout.warnings.filter((w) => !prepared.layout.overflows.some((index) => w === overflowWarning(index))),
      overflows,
      sample: { recipientName: shown, groupName: values["group.name"] },
    };
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
