// "Verify" on the wallet page: the credential re-checked on the server right now, and the check recorded.
import { z } from "zod";
import { TRIGGERED_BY } from "../interactions/schema";
import { recordWalletEvent } from "./events";
import { findWalletCredential } from "./service";
import { ApiError } from "../core/errors";

export const VerifyBody = z.strictObject({
  publicId: z.uuid("must be a credential's public id (a UUID)"),
  triggeredBy: z.enum(TRIGGERED_BY),
});

export type Verification = {
  /** Issued, not expired and not revoked. */
  valid: boolean;
  /** Revoked before anything else: a revoked credential no longer vouches for anything, expired or not. */
  status: "issued" | "expired" | "revoked";
  issuer: string;
  recipient: string;
  credential: string;
  issueDate: string;
  expiryDate: string | null;
  revokedAt: string | null;
  revocationReason: string | null;
  checkedAt: string;
};

export async function verifyCredential(input: z.infer<typeof VerifyBody>): Promise<Verification> {
  const credential = await findWalletCredential(input.publicId);
  if (!credential) throw new ApiError("not_found", "Credential not found.");
  await recordWalletEvent({ publicId: input.publicId, eventType: "credential_verified", triggeredBy: input.triggeredBy });
  const status = credential.revocation ? "revoked" : credential.status;
  return {
    valid: status === "issued",
    status,
    issuer: credential.organization.name,
    recipient: credential.recipientName,
    credential: credential.groupName,
    issueDate: credential.issueDate,
    expiryDate: credential.expiryDate,
    revokedAt: credential.revocation?.revokedAt ?? null,
    revocationReason: credential.revocation?.reason ?? null,
    checkedAt: new Date().toISOString(),
  };
}
