// "Verify" on the wallet page: the same checks as /verify (lib/verification), run on the credential's
// signed Open Badges 3.0 document as anyone else would receive it, and the check recorded.
import { z } from "zod";
import { TRIGGERED_BY } from "../interactions/schema";
import { recordWalletEvent } from "./events";
import { ApiError } from "../core/errors";
import { ownSignedCredential } from "../verification/own-credentials";
import type { VerificationReport } from "../verification/report";
import { verifyCredentialDocument } from "../verification/verify-document";

export const VerifyBody = z.strictObject({
  publicId: z.uuid("must be a credential's public id (a UUID)"),
  triggeredBy: z.enum(TRIGGERED_BY),
});

export async function verifyCredential(input: z.infer<typeof VerifyBody>): Promise<VerificationReport> {
  const json = await ownSignedCredential(input.publicId);
  if (!json) throw new ApiError("not_found", "Credential not found.");
  await recordWalletEvent({ publicId: input.publicId, eventType: "credential_verified", triggeredBy: input.triggeredBy });
  return verifyCredentialDocument({ kind: "json", json });
}
