// Request and response shapes of name corrections (docs/api.md, Name corrections).
import { z } from "zod";
import { multiLineText, singleLineText } from "../core/text";
import { recipientName } from "../credentials/schema";

export const CORRECTION_STATUSES = ["open", "approved", "rejected"] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

export const NOTE_MAX = 1000;
export const REASON_MAX = 500;

/** What a recipient asks for: the name follows the very rule a recipient name of the API follows. */
export const CorrectionRequestBody = z.strictObject({
  name: recipientName,
  note: multiLineText({ trim: true }).max(NOTE_MAX, `must be at most ${NOTE_MAX} characters`).optional(),
});
export type CorrectionRequestInput = z.infer<typeof CorrectionRequestBody>;

export const RejectCorrectionBody = z.strictObject({
  reason: singleLineText({ trim: true }).min(1, "must not be empty").max(REASON_MAX, `must be at most ${REASON_MAX} characters`),
});
export type RejectCorrectionInput = z.infer<typeof RejectCorrectionBody>;

export const CorrectionListQuery = {
  status: z.enum(CORRECTION_STATUSES, { error: "must be one of open, approved, rejected" }).optional(),
};

export const CorrectionRequestResponse = z.object({
  id: z.string(),
  credentialId: z.string(),
  currentName: z.string().describe("The name on the credential when the request was made."),
  requestedName: z.string(),
  note: z.string().nullable().describe("The recipient's note, or null."),
  status: z.enum(CORRECTION_STATUSES),
  createdAt: z.iso.datetime(),
  resolvedAt: z.iso.datetime().nullable(),
  resolution: z.string().nullable().describe("The rejection reason; null while open and when approved."),
});
export type ApiCorrectionRequest = z.infer<typeof CorrectionRequestResponse>;
