import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CredentialOfferResponse } from "@/lib/oid4vci/schema";
import { createCredentialOffer } from "@/lib/oid4vci/service";

export const credentialOfferRoute = defineRoute("/v1/credentials/{id}/credential-offer", {
  POST: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Offer the credential to a wallet app (OpenID4VCI)",
    description:
      "An OpenID for Verifiable Credential Issuance 1.0 credential offer with a pre-authorized code (valid 10 minutes, usable once, no transaction code). A wallet app that opens `link` (or scans it as a QR code) receives the credential as a signed Open Badges 3.0 document bound to its own key (`credentialSubject.id` is the holder's DID), with the same revocation status as the credential. Whoever holds the offer can claim the credential: hand it only to its recipient. Only `issued` and `expired` credentials can be offered; a draft, scheduled or revoked one is 409 `conflict`. Revoking the credential makes outstanding offers and access tokens useless.",
    success: { status: 201, description: "The offer", schema: CredentialOfferResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => ({ status: 201, body: await createCredentialOffer(caller.organization, params.id) }),
  }),
});
