import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { CreateCredentialBody, CredentialResponse } from "@/lib/credentials/schema";
import { createCredential, listCredentials } from "@/lib/credentials/service";

export const credentialsRoute = defineRoute("/v1/credentials", {
  GET: endpoint({
    tag: "Credentials",
    summary: "List credentials, newest first",
    query: z.strictObject(paginationQuery),
    success: { status: 200, description: "A page of credentials", schema: pageOf(CredentialResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listCredentials(caller.organization, query) }),
  }),
  POST: endpoint({
    tag: "Credentials",
    summary: "Create a credential (a draft)",
    description:
      'Without `recipient.email` the credential has no recipient (`recipient: null`) and the name is kept in `attributes["recipient.name"]`. `issueDate` defaults to today (UTC), `expiryDate` to the group\'s expiry setting.',
    body: CreateCredentialBody,
    success: { status: 201, description: "The draft credential", schema: CredentialResponse },
    handle: async ({ caller, body }) => ({ status: 201, body: await createCredential(caller.organization, body) }),
  }),
});
