// Events and their delivery log are kept for 30 days, long enough to look into a failure and retry it;
// then the background loop deletes them (their deliveries and attempts go with them). An event with a
// delivery still queued (an endpoint disabled for a month) is kept until it is settled.
import { db } from "../db";

export const WEBHOOK_EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** Deletes up to `limit` events past retention with nothing left to deliver; returns how many. */
export async function deleteOldWebhookEvents(limit = 500, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS);
  const old = await db().webhookEvent.findMany({
    where: { createdAt: { lt: before }, deliveries: { none: { status: "queued" } } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  if (old.length === 0) return 0;
  const { count } = await db().webhookEvent.deleteMany({
    where: { id: { in: old.map((e) => e.id) }, deliveries: { none: { status: "queued" } } },
  });
  return count;
}
