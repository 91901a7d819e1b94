// Turning an endpoint off and on, by a person (PATCH enabled) or by the worker (failing for the whole
// retry window). A disabled endpoint's queued deliveries are parked as `paused`, so that the worker's
// claim query, which walks queued rows in order of due time, never walks over them; enabling the
// endpoint puts them back in the queue, due at once.
import { db } from "../db";

/** Returns whether the endpoint was enabled (and is now disabled). */
export async function disableEndpoint(endpointId: string, reason: string | null): Promise<boolean> {
  const [changed] = await db().$transaction([
    db().webhookEndpoint.updateMany({ where: { id: endpointId, enabled: true }, data: { enabled: false, disabledReason: reason } }),
    db().webhookDelivery.updateMany({ where: { endpointId, status: "queued" }, data: { status: "paused" } }),
  ]);
  return changed.count === 1;
}

/** Enables the endpoint afresh (no reason shown, no failing streak carried over) and resumes its deliveries. */
export async function enableEndpoint(endpointId: string): Promise<void> {
  await db().$transaction([
    db().webhookEndpoint.updateMany({ where: { id: endpointId }, data: { enabled: true, disabledReason: null, failingSince: null } }),
    db().webhookDelivery.updateMany({
      where: { endpointId, status: "paused" },
      data: { status: "queued", nextAttemptAt: new Date(), leaseUntil: null, leaseOwner: null },
    }),
  ]);
}
