import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { jsonDocumentResponse } from "@/lib/api/document-response";
import { OpenBadgeCredentialResponse } from "@/lib/verifiable/schema";
import { organizationOpenBadgeCredential } from "@/lib/verifiable/service";

export const verifiableCredentialRoute = defineRoute("/v1/credentials/{id}/verifiable-credential", {
  GET: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "The credential as a signed Open Badges 3.0 credential",
    description:
      "The same signed document as the public `{WALLET_URL}/credentials/{publicId}/credential.json`: an `OpenBadgeCredential` (W3C VC 2.0) with a `DataIntegrityProof` (`eddsa-rdfc-2022`) by the organization's did:web key and a `BitstringStatusListEntry`. The same content always answers the same bytes (with an `ETag`); a change that alters the content signs a new document, and earlier ones keep verifying. A revoked credential's document is still answered: its status list says it is revoked. A draft or scheduled credential has none yet: 409 `conflict`.",
    success: { status: 200, description: "The signed credential", schema: OpenBadgeCredentialResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params, request }) =>
      jsonDocumentResponse(request, await organizationOpenBadgeCredential(caller.organization, params.id), "private, no-cache"),
  }),
});
