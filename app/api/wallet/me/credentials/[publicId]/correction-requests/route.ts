// {WALLET_URL}/api/wallet/me/credentials/{publicId}/correction-requests: the signed-in recipient asks
// for the name on one of their credentials to be corrected (POST), or reads what they asked (GET).
// Another recipient's credential, or an unknown one, is 404 (lib/corrections/service.ts).
import { z } from "zod";
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { CorrectionRequestBody } from "@/lib/corrections/schema";
import { recipientsCorrectionRequests, requestNameCorrection } from "@/lib/corrections/service";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

const params = z.object({ publicId: z.uuid() });

export const POST = walletEndpoint({ params, body: CorrectionRequestBody }, async ({ session, params, body }) => ({
  status: 201,
  body: await requestNameCorrection(session.email, params.publicId, body),
}));

export const GET = walletEndpoint({ params }, async ({ session, params }) => ({
  status: 200,
  body: { data: await recipientsCorrectionRequests(session.email, params.publicId) },
}));

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { PUT, PATCH, DELETE } = otherMethodsRefused("POST", "GET");
