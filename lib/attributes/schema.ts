// Request and response shapes for attributes (docs/api.md, Clients written for the hosted API): the names designs and email
// templates use in `[placeholders]`, built in or `custom.<tag>`.
import { z } from "zod";
import { singleLineText } from "../core/text";
import { CUSTOM_ATTRIBUTE_KEY } from "../render/document";

export const customAttributeTag = singleLineText().regex(
  CUSTOM_ATTRIBUTE_KEY,
  "must look like custom.<tag>: letters, digits, '_' or '-', 1 to 64 characters after 'custom.'",
);

export const attributeName = singleLineText({ trim: true }).min(1, "must not be empty").max(100, "must be at most 100 characters");

export const CreateAttributeBody = z.strictObject({ tag: customAttributeTag, name: attributeName });
export type CreateAttributeInput = z.infer<typeof CreateAttributeBody>;

export const AttributeResponse = z.object({
  tag: z.string(),
  name: z.string(),
  isDefault: z.boolean().describe("True for the built-in attributes; false for the organization's `custom.<tag>` ones."),
});
export type ApiAttribute = z.infer<typeof AttributeResponse>;
