// Request shapes for designs (docs/api.md, Groups and designs; the list/create/update endpoints are ours).
import { z } from "zod";
import { singleLineText } from "../core/text";
import { assetName, DESIGN_TYPES, DesignDocument } from "../render/document";
import { MAX_ASSETS_PER_DESIGN } from "./assets";

export const designName = singleLineText({ trim: true }).min(1, "must not be empty").max(200, "must be at most 200 characters");

/** name → data URI to add or replace, or null to remove. */
export const assetChanges = z
  .record(assetName, z.string().max(2_000_000).nullable())
  .refine((r) => Object.keys(r).length <= MAX_ASSETS_PER_DESIGN, `at most ${MAX_ASSETS_PER_DESIGN} assets`);

export const CreateDesignBody = z.strictObject({
  name: designName,
  type: z.enum(DESIGN_TYPES),
  document: DesignDocument.optional(),
  assets: assetChanges.optional(),
});
export type CreateDesignInput = z.infer<typeof CreateDesignBody>;

export const UpdateDesignBody = z.strictObject({
  name: designName.optional(),
  document: DesignDocument.optional(),
  assets: assetChanges.optional(),
});
export type UpdateDesignInput = z.infer<typeof UpdateDesignBody>;

/** The response shape, for the OpenAPI document. */
export const DesignResponse = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(DESIGN_TYPES),
  previewUrl: z.string().describe("Digest-versioned PNG preview filled with sample values."),
  createdAt: z.string(),
  updatedAt: z.string(),
  document: z.unknown().describe("The design document (see the README)."),
  assets: z.array(z.object({ name: z.string(), mimeType: z.string(), width: z.number(), height: z.number(), byteSize: z.number() })),
});
