// Interaction events (the spec's Events section and docs/api.md, Interactions).
import { z } from "zod";
import { singleLineText } from "../core/text";
import { paginationQuery } from "../core/pagination";

export const EVENT_TYPES = [
  "credential_viewed",
  "credential_shared_to_linkedin",
  "credential_added_to_linkedin_profile",
  "credential_shared_to_facebook",
  "credential_shared_to_twitter",
  "credential_shared_to_messenger",
  "credential_shared_to_whatsapp",
  "credential_shared_to_pinterest",
  "credential_shared_to_telegram",
  "credential_shared_to_weibo",
  "credential_downloaded",
  "credential_link_copied",
  "credential_verified",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const TRIGGERED_BY = ["recipient", "guest"] as const;
export type TriggeredBy = (typeof TRIGGERED_BY)[number];

export const CreateInteractionBody = z.strictObject({
  credentialId: singleLineText().min(1, "must not be empty").max(100),
  eventType: z.enum(EVENT_TYPES),
  triggeredBy: z.enum(TRIGGERED_BY),
  triggeredAt: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time with a time zone, e.g. 2026-05-01T12:00:00Z" }),
});
export type CreateInteractionInput = z.infer<typeof CreateInteractionBody>;

export const ListInteractionsQuery = z.strictObject({
  credentialId: singleLineText().min(1, "must not be empty").max(100).optional(),
  ...paginationQuery,
});

export const InteractionResponse = z.object({
  id: z.string(),
  credentialId: z.string(),
  eventType: z.enum(EVENT_TYPES),
  triggeredBy: z.enum(TRIGGERED_BY),
  triggeredAt: z.string(),
});
