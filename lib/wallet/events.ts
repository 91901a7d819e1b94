// Events the wallet page records about itself, without any API token: the page says which credential
// (publicId), what happened and who did it; the time is the server's.
import { z } from "zod";
import { ApiError } from "../core/errors";
import { readStatus } from "../credentials/serialize";
import { db } from "../db";
import { newId } from "../db/ids";
import { EVENT_TYPES, TRIGGERED_BY } from "../interactions/schema";
import { recordEngagement } from "../interactions/engagement";
import { interactionEvent, serializeInteraction, type ApiInteraction } from "../interactions/service";
import { recordWebhookEvents } from "../webhooks/outbox";
import { credentialAccessByPublicId } from "./privacy";

export const WalletEventBody = z.strictObject({
  publicId: z.uuid("must be a credential's public id (a UUID)"),
  eventType: z.enum(EVENT_TYPES),
  triggeredBy: z.enum(TRIGGERED_BY),
});
export type WalletEventInput = z.infer<typeof WalletEventBody>;

/** The credential a wallet event is about; only issued and expired credentials have a wallet page. */
async function walletCredentialOrFail(publicId: string) {
  const credential = await db().credential.findUnique({
    where: { publicId },
    select: { id: true, organizationId: true, status: true, issueDate: true, expiryDate: true },
  });
  const status = credential ? readStatus(credential) : null;
  if (!credential || (status !== "issued" && status !== "expired")) throw new ApiError("not_found", "Credential not found.");
  return credential;
}

/**
 * Records one event for whoever sends `walletToken` (the cookie's, lib/wallet/session.ts): a private credential's page is its signed-in
 * recipient's only, so nobody else records events about it (404 as for an unknown credential).
 */
export async function recordWalletEvent(input: WalletEventInput, walletToken: string | null): Promise<ApiInteraction> {
  if ((await credentialAccessByPublicId(input.publicId, walletToken)) === "hidden")
    throw new ApiError("not_found", "Credential not found.");
  const credential = await walletCredentialOrFail(input.publicId);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.interaction.create({
      data: {
        id: newId("evt"),
        organizationId: credential.organizationId,
        credentialId: credential.id,
        eventType: input.eventType,
        triggeredBy: input.triggeredBy,
        triggeredAt: new Date(),
        source: "wallet",
      },
    });
    await recordEngagement(tx, { organizationId: credential.organizationId, credentialId: credential.id, ...input });
    await recordWebhookEvents(tx, credential.organizationId, [interactionEvent(created)]);
    return created;
  });
  return serializeInteraction(row);
}
