// "Verify" on the wallet page: the same checks as /verify (lib/verification), run on the credential's
// signed Open Badges 3.0 document as anyone else would receive it, and the check recorded.
import { z } from "zod";
import { TRIGGERED_BY } from "../interactions/schema";
import { recordWalletEvent } from "./events";
import { ApiError } from "../core/errors";
import { publicOpenBadgeCredential } from "../verifiable/service";
import { credentialAccessByPublicId } from "./privacy";
import type { VerificationReport } from "../verification/report";
import { verifyCredentialDocument } from "../verification/verify-document";

export const VerifyBody = z.strictObject({
  publicId: z.uuid("must be a credential's public id (a UUID)"),
  triggeredBy: z.enum(TRIGGERED_BY),
});

/**
 * The check of one credential for whoever sends `walletToken` (the cookie's, lib/wallet/session.ts): a private credential answers 404 but to
 * its signed-in recipient, like its page (the report names the recipient).
 */
export async function verifyCredential(input: z.infer<typeof VerifyBody>, walletToken: string | null): Promise<VerificationReport> {
  const access = await credentialAccessByPublicId(input.publicId, walletToken);
  const json = access === "hidden" ? null : (await publicOpenBadgeCredential(input.publicId))?.json;
  if (!json) throw new ApiError("not_found", "Credential not found.");
  await recordWalletEvent({ publicId: input.publicId, eventType: "credential_verified", triggeredBy: input.triggeredBy }, walletToken);
  return verifyCredentialDocument({ kind: "json", json });
}
