// POST /api/wallet/me/credentials/{publicId}/credential-offer: "Add to a wallet app" for the signed-in
// recipient, the same answer as POST /v1/credentials/{id}/credential-offer (an OpenID4VCI offer with a
// single-use code, valid 10 minutes). Another recipient's or an unknown credential: 404; revoked: 409.
// Only with a session, never for the recipient mark alone: an offer gives the credential to whoever
// claims it.
import { z } from "zod";
import { walletEndpoint } from "@/lib/api/wallet-endpoint";
import { createRecipientCredentialOffer } from "@/lib/oid4vci/service";
import { otherMethodsRefused } from "@/lib/api/public-endpoint";

export const POST = walletEndpoint(
  { params: z.object({ publicId: z.uuid() }), rateLimit: { name: "wallet-offer", perSecond: 1, burst: 10 } },
  async ({ session, params }) => ({ status: 201, body: await createRecipientCredentialOffer(session.email, params.publicId) }),
);

// Every other method: 405 in the error envelope with Allow, like the rest of the API.
export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");
