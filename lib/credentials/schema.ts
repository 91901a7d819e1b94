// Request shapes for credentials (docs/api.md, Credentials).
import { z } from "zod";
import { multiLineText, singleLineText } from "../core/text";
import { CUSTOM_ATTRIBUTE_KEY } from "../render/document";
import { isCalendarDate } from "../core/dates";

export const calendarDate = z.string().refine(isCalendarDate, "must be a real calendar date in YYYY-MM-DD form");

export const recipientName = singleLineText({ trim: true }).min(1, "must not be empty").max(200, "must be at most 200 characters");

export const recipientEmail = z.email("must be a valid email address").max(254, "must be at most 254 characters");

export const customAttributes = z.record(
  z.string().regex(CUSTOM_ATTRIBUTE_KEY, "keys must look like custom.<tag>: letters, digits, '_' or '-', 1 to 64 characters"),
  multiLineText().max(10_000, "must be at most 10000 characters").nullable(),
);

/**
 * `recipient.id` on create: a new credential's recipient is found by email, so there is no id to give.
 * A published LMS plug-in always sends `"id": null`; null is accepted and ignored, any other value refused.
 */
export const ignoredRecipientId = z
  .null({ error: "must be null or left out: a new credential's recipient is found by its email" })
  .optional()
  .describe("Ignored. Accepted only as null, which some published clients always send; a recipient is found by `email`.");

export const CreateCredentialBody = z.strictObject({
  groupId: singleLineText().min(1, "must not be empty").max(100),
  recipient: z.strictObject({ id: ignoredRecipientId, name: recipientName, email: recipientEmail.optional() }),
  issueDate: calendarDate.optional(),
  expiryDate: calendarDate.optional(),
  customAttributes: customAttributes.optional(),
});
export type CreateCredentialInput = z.infer<typeof CreateCredentialBody>;

export const UpdateCredentialBody = z.strictObject({
  recipient: z
    .strictObject({ id: singleLineText().min(1, "must not be empty").max(100), name: recipientName, email: recipientEmail.optional() })
    .optional(),
  issueDate: calendarDate.optional(),
  expiryDate: calendarDate.nullable().optional(),
  customAttributes: customAttributes.optional(),
});
export type UpdateCredentialInput = z.infer<typeof UpdateCredentialBody>;

export const SendCredentialBody = z.strictObject({ deliveryMethod: z.enum(["email"]) });

export const revocationReason = singleLineText({ trim: true }).min(1, "must not be empty").max(500, "must be at most 500 characters");

export const RevokeCredentialBody = z.strictObject({ reason: revocationReason.optional() });
export type RevokeCredentialInput = z.infer<typeof RevokeCredentialBody>;

export const CREDENTIAL_STATUSES = ["draft", "scheduled", "issued", "expired"] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

export const CredentialResponse = z.object({
  id: z.string(),
  publicId: z.uuid(),
  groupId: z.string(),
  status: z.enum(CREDENTIAL_STATUSES),
  recipient: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  issueDate: z.string(),
  expiryDate: z.string().nullable(),
  attributes: z.object({ "recipient.name": z.string().nullable() }),
  customAttributes: z.record(z.string(), z.string().nullable()),
  revokedAt: z.iso.datetime().nullable().describe("When the credential was revoked; null while it is not."),
  revocationReason: z
    .string()
    .nullable()
    .describe("Why it was revoked, as the issuer wrote it; null when not revoked or no reason was given."),
  createdAt: z.string(),
  updatedAt: z.string(),
});
