// The funnel's per-credential flags (CredentialEngagement): which stage signals a credential has had.
// Set in the same transaction as the interaction that carries the signal, so they never disagree with
// the events; a flag once set stays set (an upsert that only ORs), so concurrent events of one credential
// cannot lose each other's flags, and a reload writes nothing new.
import type { SqlClient } from "../db";
import { Prisma } from "../generated/sqlite/client";
import type { EventType, TriggeredBy } from "./schema";

export type EngagementFlags = { opened: boolean; shared: boolean; verified: boolean };

/**
 * The funnel stages an event counts for: a view by the recipient opens the credential, a share to any
 * network or an add to a LinkedIn profile (by whoever) shares it, a check by a guest verifies it.
 */
export function engagementOf(eventType: EventType, triggeredBy: TriggeredBy): EngagementFlags {
  return {
    opened: eventType === "credential_viewed" && triggeredBy === "recipient",
    shared: eventType.startsWith("credential_shared_to_") || eventType === "credential_added_to_linkedin_profile",
    verified: eventType === "credential_verified" && triggeredBy === "guest",
  };
}

const bool = (value: boolean) => Prisma.raw(value ? "TRUE" : "FALSE");

/** Records the event's stage flags for its credential, in the caller's transaction; nothing for other events. */
export async function recordEngagement(
  tx: SqlClient,
  event: { organizationId: string; credentialId: string; eventType: EventType; triggeredBy: TriggeredBy },
): Promise<void> {
  const flags = engagementOf(event.eventType, event.triggeredBy);
  if (!flags.opened && !flags.shared && !flags.verified) return;
  await tx.$executeRaw`
    INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "opened", "shared", "verified")
    VALUES (${event.credentialId}, ${event.organizationId}, ${bool(flags.opened)}, ${bool(flags.shared)}, ${bool(flags.verified)})
    ON CONFLICT ("credentialId") DO UPDATE SET
      "opened" = ("CredentialEngagement"."opened" OR excluded."opened"),
      "shared" = ("CredentialEngagement"."shared" OR excluded."shared"),
      "verified" = ("CredentialEngagement"."verified" OR excluded."verified")`;
}
