// The events an endpoint can subscribe to (docs/api.md, Webhooks). `*` subscribes to all of them,
// including any added later.
export const WEBHOOK_EVENT_TYPES = [
  "credential.created",
  "credential.updated",
  "credential.issued",
  "credential.sent",
  "credential.revoked",
  "credential.deleted",
  // The day a group's expiry reminder goes to the recipient, and the first day a credential reads as expired.
  "credential.expiring",
  "credential.expired",
  "credential_interaction.created",
  "group.created",
  "group.updated",
  "group.deleted",
  "correction_request.created",
  "correction_request.resolved",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const ALL_EVENTS = "*";

/** What an endpoint's `events` list asks for: `*`, or these types. */
export function subscribesTo(events: readonly string[], type: WebhookEventType): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}

/** A list as stored and shown: `["*"]` alone when it holds `*`, otherwise the types once each, sorted. */
export function normalizeEventList(events: readonly string[]): string[] {
  if (events.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return [...new Set(events)].sort();
}
