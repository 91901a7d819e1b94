import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { CredentialResponse, UpdateCredentialBody } from "@/lib/credentials/schema";
import { deleteCredential, getCredential, updateCredential } from "@/lib/credentials/service";

export const credentialRoute = defineRoute("/v1/credentials/{id}", {
  GET: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Get a credential",
    success: { status: 200, description: "The credential", schema: CredentialResponse },
    errors: ["not_found"],
    handle: async ({ caller, params }) => ({ status: 200, body: await getCredential(caller.organization, params.id) }),
  }),
  PATCH: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Update a credential",
    description:
      "`recipient` must name the credential's current recipient `id`; it renames (and may re-address) that recipient. `expiryDate: null` re-applies the group's expiry setting. `customAttributes` are merged; a key sent with null is stored as null. A revoked credential is final: 409 `conflict`.",
    body: UpdateCredentialBody,
    success: { status: 200, description: "The credential", schema: CredentialResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params, body }) => ({ status: 200, body: await updateCredential(caller.organization, params.id, body) }),
  }),
  DELETE: endpoint({
    params: idParams,
    tag: "Credentials",
    summary: "Delete a credential",
    description: "Its wallet page, previews and interactions are gone after; queued email is cancelled.",
    success: { status: 204, description: "Deleted" },
    errors: ["not_found"],
    handle: async ({ caller, params }) => {
      await deleteCredential(caller.organization, params.id);
      return { status: 204 };
    },
  }),
});
