import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CorrectionRequestResponse } from "@/lib/corrections/schema";
import { approveCorrectionRequest } from "@/lib/corrections/service";

export const approveCorrectionRoute = defineRoute("/v1/correction-requests/{id}/approve", {
  POST: endpoint({
    params: idParams,
    tag: "Name corrections",
    summary: "Approve a name correction request",
    description:
      "Applies the requested name exactly as `PATCH /v1/credentials/{id}` with that recipient name would (new previews and signed document, the same wallet link, a `credential.updated` event) in the same transaction as the decision, then emails the recipient. A request already resolved, or whose credential was revoked meanwhile (revocation is final; reject it instead), is 409 `conflict`. No body.",
    success: { status: 200, description: "The approved request", schema: CorrectionRequestResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => ({ status: 200, body: await approveCorrectionRequest(caller.organization, params.id) }),
  }),
});
