// Webhook endpoints of an organization (docs/api.md, Webhooks): add, list, change, delete, rotate the
// signing secret, read the delivery log, retry an event. Every id is looked up within the caller's
// organization, so another organization's endpoint is simply not found.
import { ApiError, invalidField, notFound } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { db } from "../db";
import { newId } from "../db/ids";
import { assertCallableUrl, OutboundRequestError } from "../net/outbound-request";
import { normalizeEventList } from "./event-types";
import { MAX_ENDPOINTS_PER_ORGANIZATION, type CreateWebhookInput, type UpdateWebhookInput } from "./schema";
import { newSigningSecret, PREVIOUS_SECRET_LIFETIME_MS, sealSigningSecret } from "./secrets";
import {
  endpointSelect,
  serializeWebhookAttempt,
  serializeWebhookEndpoint,
  type ApiWebhookAttempt,
  type ApiWebhookEndpoint,
} from "./serialize";
import { nudgeWebhookWorker } from "./nudge";
import { disableEndpoint, enableEndpoint } from "./endpoint-state";

export type ApiWebhookEndpointWithSecret = ApiWebhookEndpoint & { secret: string };

/**
 * The URL as it will be called, or a validation error on `url` saying why not: https (http only for
 * loopback hosts), and every address its host resolves to public unless WEBHOOK_ALLOW_PRIVATE=1. The
 * worker checks again on the address it connects to (lib/net).
 */
async function callableUrl(raw: string): Promise<string> {
  try {
    return (await assertCallableUrl(raw)).href;
  } catch (error) {
    if (error instanceof OutboundRequestError) throw invalidField("url", error.message);
    throw error;
  }
}

async function findEndpoint(organizationId: string, id: string) {
  const row = await db().webhookEndpoint.findFirst({ where: { id, organizationId }, select: endpointSelect });
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export async function createWebhookEndpoint(organizationId: string, input: CreateWebhookInput): Promise<ApiWebhookEndpointWithSecret> {
  const url = await callableUrl(input.url);
  const count = await db().webhookEndpoint.count({ where: { organizationId } });
  if (count >= MAX_ENDPOINTS_PER_ORGANIZATION) {
    throw new ApiError(
      "conflict",
      `An organization can have at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints; delete one first.`,
    );
  }
  const id = newId("whk");
  const secret = newSigningSecret();
  const row = await db().webhookEndpoint.create({
    data: {
      id,
      organizationId,
      url,
      events: JSON.stringify(normalizeEventList(input.events)),
      description: input.description ?? null,
      encryptedSecret: sealSigningSecret(secret, { id, organizationId }),
    },
    select: endpointSelect,
  });
  return { ...serializeWebhookEndpoint(row), secret };
}

export async function listWebhookEndpoints(
  organizationId: string,
  options: { cursor?: string; limit: number },
): Promise<Page<ApiWebhookEndpoint>> {
  return newestFirstPage({
    scope: "webhooks",
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) =>
      db().webhookEndpoint.findMany({ where: { organizationId, ...where }, orderBy, take, select: endpointSelect }),
    serialize: serializeWebhookEndpoint,
  });
}

export async function getWebhookEndpoint(organizationId: string, id: string): Promise<ApiWebhookEndpoint> {
  return serializeWebhookEndpoint(await findEndpoint(organizationId, id));
}

export async function updateWebhookEndpoint(organizationId: string, id: string, input: UpdateWebhookInput): Promise<ApiWebhookEndpoint> {
  await findEndpoint(organizationId, id);
  const url = input.url !== undefined ? await callableUrl(input.url) : undefined;
  const fields = {
    ...(url !== undefined ? { url } : {}),
    ...(input.events !== undefined ? { events: JSON.stringify(normalizeEventList(input.events)) } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
  if (Object.keys(fields).length > 0) {
    const { count } = await db().webhookEndpoint.updateMany({ where: { id, organizationId }, data: fields });
    if (count !== 1) throw notFound("Webhook endpoint"); // deleted meanwhile
  }
  if (input.enabled === false) await disableEndpoint(id, null);
  if (input.enabled === true) {
    await enableEndpoint(id);
    nudgeWebhookWorker();
  }
  return getWebhookEndpoint(organizationId, id);
}

/** Deletes the endpoint with its deliveries and their log: nothing more is sent to it. */
export async function deleteWebhookEndpoint(organizationId: string, id: string): Promise<void> {
  const { count } = await db().webhookEndpoint.deleteMany({ where: { id, organizationId } });
  if (count !== 1) throw notFound("Webhook endpoint");
}

/**
 * A new signing secret, returned this once. The one it replaces keeps signing alongside it for 24 hours
 * (every delivery carries both signatures), so receivers can switch without missing an event; a secret
 * rotated out before that stops at once.
 */
export async function rotateWebhookSecret(organizationId: string, id: string): Promise<ApiWebhookEndpointWithSecret> {
  const secret = newSigningSecret();
  const row = await db().$transaction(async (tx) => {
    const current = await tx.webhookEndpoint.findFirst({ where: { id, organizationId }, select: { encryptedSecret: true } });
    if (!current) throw notFound("Webhook endpoint");
    const { count } = await tx.webhookEndpoint.updateMany({
      // Conditional on the secret read: of two rotations at once, the second fails rather than losing the first's secret.
      where: { id, organizationId, encryptedSecret: current.encryptedSecret },
      data: {
        encryptedSecret: sealSigningSecret(secret, { id, organizationId }),
        encryptedPreviousSecret: current.encryptedSecret,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_LIFETIME_MS),
      },
    });
    if (count !== 1)
      throw new ApiError("conflict", "The secret was rotated by another request at the same time; rotate again if you need another one.");
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: endpointSelect });
  });
  return { ...serializeWebhookEndpoint(row), secret };
}

/** Delivery attempts to the endpoint, newest first. */
export async function listWebhookAttempts(
  organizationId: string,
  id: string,
  options: { cursor?: string; limit: number },
): Promise<Page<ApiWebhookAttempt>> {
  await findEndpoint(organizationId, id);
  return newestFirstPage({
    scope: `webhook-attempts:${id}`,
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) => db().webhookAttempt.findMany({ where: { endpointId: id, ...where }, orderBy, take }),
    serialize: serializeWebhookAttempt,
  });
}

/**
 * Sends an event to the endpoint again now, whatever became of it before: one more attempt (further
 * retries only while the event is within its retry window). The endpoint must be enabled.
 */
export async function retryWebhookDelivery(
  organizationId: string,
  id: string,
  eventId: string,
): Promise<{ eventId: string; status: "queued" }> {
  const endpoint = await findEndpoint(organizationId, id);
  const delivery = await db().webhookDelivery.findUnique({
    where: { endpointId_eventId: { endpointId: id, eventId } },
    select: { id: true },
  });
  if (!delivery) throw notFound("Delivery of this event to this endpoint");
  if (!endpoint.enabled) throw new ApiError("conflict", "This endpoint is disabled; enable it before retrying a delivery.");
  // The lease is cleared too: during an attempt under way, the retry is a new attempt rather than lost
  // when that one's outcome is written (lib/webhooks/worker.ts writes outcomes only to rows still leased).
  const { count } = await db().webhookDelivery.updateMany({
    where: { id: delivery.id },
    data: { status: "queued", nextAttemptAt: new Date(), leaseUntil: null, leaseOwner: null },
  });
  if (count !== 1) throw notFound("Delivery of this event to this endpoint"); // its endpoint was deleted meanwhile
  nudgeWebhookWorker();
  return { eventId, status: "queued" };
}
