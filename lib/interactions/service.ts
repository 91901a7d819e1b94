// Interaction events recorded against credentials: through the API (an issuer's own systems) and,
// later, by the wallet page itself.
import { invalidField } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { db } from "../db";
import { newId } from "../db/ids";
import { recordWebhookEvents, type PendingWebhookEvent } from "../webhooks/outbox";
import { recordEngagement } from "./engagement";
import type { CreateInteractionInput, EventType, TriggeredBy } from "./schema";

export type ApiInteraction = { id: string; credentialId: string; eventType: EventType; triggeredBy: TriggeredBy; triggeredAt: string };

type InteractionRow = { id: string; credentialId: string; eventType: string; triggeredBy: string; triggeredAt: Date };

export function serializeInteraction(row: InteractionRow): ApiInteraction {
  return {
    id: row.id,
    credentialId: row.credentialId,
    eventType: row.eventType as EventType,
    triggeredBy: row.triggeredBy as TriggeredBy,
    triggeredAt: row.triggeredAt.toISOString(),
  };
}

/** The webhook event of a recorded interaction (API or wallet), its data the interaction as the API returns it. */
export function interactionEvent(row: InteractionRow): PendingWebhookEvent {
  return { type: "credential_interaction.created", data: () => serializeInteraction(row) };
}

async function credentialOfOrganization(organizationId: string, credentialId: string) {
  const credential = await db().credential.findFirst({ where: { id: credentialId, organizationId }, select: { id: true } });
  if (!credential) throw invalidField("credentialId", "no credential with this id in your organization");
  return credential;
}

export async function createInteraction(organizationId: string, input: CreateInteractionInput): Promise<ApiInteraction> {
  await credentialOfOrganization(organizationId, input.credentialId);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.interaction.create({
      data: {
        id: newId("evt"),
        organizationId,
        credentialId: input.credentialId,
        eventType: input.eventType,
        triggeredBy: input.triggeredBy,
        triggeredAt: new Date(input.triggeredAt),
        source: "api",
      },
    });
    await recordEngagement(tx, { organizationId, ...input });
    await recordWebhookEvents(tx, organizationId, [interactionEvent(created)]);
    return created;
  });
  return serializeInteraction(row);
}

export async function listInteractions(
  organizationId: string,
  options: { credentialId?: string; cursor?: string; limit: number },
): Promise<Page<ApiInteraction>> {
  if (options.credentialId) await credentialOfOrganization(organizationId, options.credentialId);
  return newestFirstPage({
    scope: `interactions:${options.credentialId ?? "*"}`,
    key: "triggeredAt",
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) =>
      db().interaction.findMany({
        where: { organizationId, ...(options.credentialId ? { credentialId: options.credentialId } : {}), ...where },
        orderBy,
        take,
      }),
    serialize: serializeInteraction,
  });
}
