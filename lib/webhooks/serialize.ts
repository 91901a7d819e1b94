// Webhook endpoint and attempt rows as the API returns them.
export type WebhookEndpointRow = {
  id: string;
  url: string;
  events: string;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export const endpointSelect = {
  id: true,
  url: true,
  events: true,
  description: true,
  enabled: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

export function serializeWebhookEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type ApiWebhookEndpoint = ReturnType<typeof serializeWebhookEndpoint>;

export type WebhookAttemptRow = {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  outcome: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  createdAt: Date;
};

export function serializeWebhookAttempt(row: WebhookAttemptRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.eventType,
    attempt: row.attempt,
    status: row.outcome as "succeeded" | "failed",
    responseStatus: row.responseStatus,
    error: row.error,
    durationMs: row.durationMs,
    responseBodyExcerpt: row.responseExcerpt,
    createdAt: row.createdAt.toISOString(),
  };
}
export type ApiWebhookAttempt = ReturnType<typeof serializeWebhookAttempt>;
