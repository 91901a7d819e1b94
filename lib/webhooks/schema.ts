// Request and response shapes of /v1/webhooks (docs/api.md, Webhooks). The URL's shape is checked
// here; whether it may be called (https, public address after DNS) is the service's check, because it
// needs a lookup.
import { z } from "zod";
import { singleLineText } from "../core/text";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "./event-types";

export const MAX_ENDPOINTS_PER_ORGANIZATION = 20;

const endpointUrl = singleLineText().min(1, "must not be empty").max(2000, "must be at most 2000 characters");

const eventName = z.string().refine((v) => v === ALL_EVENTS || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(v), {
  message: `must be one of ${[...WEBHOOK_EVENT_TYPES, ALL_EVENTS].join(", ")}`,
});

const eventList = z.array(eventName).min(1, "must name at least one event").max(50);

const description = singleLineText({ trim: true }).max(500, "must be at most 500 characters");

export const CreateWebhookBody = z.strictObject({
  url: endpointUrl,
  events: eventList,
  description: description.nullable().optional(),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z.strictObject({
  url: endpointUrl.optional(),
  events: eventList.optional(),
  description: description.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>;

/** `{id}` and `{eventId}` of the retry route. */
export const DeliveryRetryParams = z.strictObject({
  id: singleLineText().min(1).max(100),
  eventId: singleLineText().min(1).max(100),
});

export const WebhookEndpointResponse = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe("Why the service disabled the endpoint (failing continuously for 24 hours); null otherwise"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const WebhookEndpointWithSecret = WebhookEndpointResponse.extend({
  secret: z.string().describe("The signing secret (`whsec_` + base64); shown in this response only"),
});

export const WebhookAttemptResponse = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  attempt: z.number().int().describe("1 for the first attempt of this event to this endpoint"),
  status: z.enum(["succeeded", "failed"]),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable().describe("Why there was no usable answer (timeout, refused address, too large, ...)"),
  durationMs: z.number().int(),
  responseBodyExcerpt: z.string().nullable().describe("The first 1,000 characters of the answer's body"),
  createdAt: z.string(),
});

export const RetryAcceptedResponse = z.object({
  eventId: z.string(),
  status: z.literal("queued"),
});
