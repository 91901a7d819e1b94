// Webhook events are written in the transaction of the change they report (the outbox pattern, as for
// mail): an event exists if and only if its change committed, and the worker (worker.ts) delivers it.
// An organization with no enabled endpoint subscribed to a type pays one indexed read per transaction
// and writes nothing; the payload is only built when someone will receive it.
import type { SqlClient } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { newId } from "../db/ids";
import { subscribesTo, type WebhookEventType } from "./event-types";

export type PendingWebhookEvent = {
  type: WebhookEventType;
  /** The resource as the API returns it, or a Promise of it; called only when an endpoint subscribes to the type. */
  data: () => unknown;
};

/** The body every delivery of an event sends, byte for byte (what the signature covers). */
export function eventPayload(id: string, type: WebhookEventType, createdAt: Date, data: unknown): string {
  return JSON.stringify({ id, type, createdAt: createdAt.toISOString(), data });
}

/**
 * Writes `events` of `organizationId` with one delivery per enabled endpoint subscribed to each, inside
 * the caller's transaction. Returns how many deliveries it queued.
 */
export async function recordWebhookEvents(tx: SqlClient, organizationId: string, events: readonly PendingWebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  // Plain SQL: every credential change asks this, and most organizations have no endpoint.
  const endpoints = await tx.$queryRaw<{ id: string; events: string }[]>`
    SELECT "id", "events" FROM "WebhookEndpoint" WHERE "organizationId" = ${organizationId} AND "enabled" = TRUE`;
  if (endpoints.length === 0) return 0;
  const subscriptions = endpoints.map((e) => ({ id: e.id, events: JSON.parse(e.events) as string[] }));
  const now = new Date();
  const eventRows: { id: string; organizationId: string; type: string; payload: string; createdAt: Date }[] = [];
  const deliveryRows: { id: string; endpointId: string; eventId: string; nextAttemptAt: Date; createdAt: Date }[] = [];
  for (const event of events) {
    const receivers = subscriptions.filter((s) => subscribesTo(s.events, event.type));
    if (receivers.length === 0) continue;
    const id = newId("evt");
    eventRows.push({
      id,
      organizationId,
      type: event.type,
      payload: eventPayload(id, event.type, now, await event.data()),
      createdAt: now,
    });
    for (const receiver of receivers)
      deliveryRows.push({ id: newId("whd"), endpointId: receiver.id, eventId: id, nextAttemptAt: now, createdAt: now });
  }
  if (eventRows.length === 0) return 0;
  await tx.$executeRaw`
    INSERT INTO "WebhookEvent" ("id", "organizationId", "type", "payload", "createdAt")
    VALUES ${Prisma.join(eventRows.map((e) => Prisma.sql`(${e.id}, ${e.organizationId}, ${e.type}, ${e.payload}, ${e.createdAt})`))}`;
  await tx.$executeRaw`
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "eventId", "status", "attempts", "nextAttemptAt", "createdAt")
    VALUES ${Prisma.join(deliveryRows.map((d) => Prisma.sql`(${d.id}, ${d.endpointId}, ${d.eventId}, 'queued', 0, ${d.nextAttemptAt}, ${d.createdAt})`))}`;
  return deliveryRows.length;
}
