import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CredentialResponse, SendCredentialBody } from "@/lib/credentials/schema";
import { sendCredential } from "@/lib/credentials/service";

export const sendRoute = defineRoute("/v1/credentials/{id}/send", {
  POST: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Send an issued credential to its recipient by email",
    description:
      "Queues the email built from the group's email template and returns at once; delivery is retried until it succeeds or is given up on.",
    body: SendCredentialBody,
    success: { status: 200, description: "The credential", schema: CredentialResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => ({ status: 200, body: await sendCredential(caller.organization, params.id) }),
  }),
});
