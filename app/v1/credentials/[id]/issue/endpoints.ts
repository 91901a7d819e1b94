import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CredentialResponse } from "@/lib/credentials/schema";
import { issueCredential } from "@/lib/credentials/service";

export const issueRoute = defineRoute("/v1/credentials/{id}/issue", {
  POST: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Issue a draft credential",
    description: "The status becomes `issued`, or `scheduled` when the issue date is in the future (it becomes `issued` on that date).",
    success: { status: 200, description: "The credential", schema: CredentialResponse },
    errors: ["not_found", "conflict", "payment_required"],
    handle: async ({ caller, params }) => ({ status: 200, body: await issueCredential(caller.organization, params.id) }),
  }),
});
