import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CredentialResponse, RevokeCredentialBody } from "@/lib/credentials/schema";
import { revokeCredential } from "@/lib/credentials/service";

export const revokeRoute = defineRoute("/v1/credentials/{id}/revoke", {
  POST: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Revoke an issued, scheduled or expired credential",
    description:
      "Final: `revokedAt` is set (and `revocationReason`, when a `reason` is sent); the wallet page then says the credential was revoked, when and why, and emails still queued for it are cancelled. A revoked credential cannot be sent, changed or revoked again (409 `conflict`), nor can a draft be revoked. The body may be left out.",
    body: RevokeCredentialBody,
    bodyOptional: true,
    success: { status: 200, description: "The revoked credential", schema: CredentialResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params, body }) => ({ status: 200, body: await revokeCredential(caller.organization, params.id, body) }),
  }),
});
