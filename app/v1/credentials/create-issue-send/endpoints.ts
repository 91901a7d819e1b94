import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { CreateCredentialBody, CredentialResponse } from "@/lib/credentials/schema";
import { createIssueSendCredential } from "@/lib/credentials/service";

export const createIssueSendRoute = defineRoute("/v1/credentials/create-issue-send", {
  POST: endpoint({
    tag: "Credentials",
    summary: "Create, issue and send a credential in one call",
    description:
      "Atomic: the credential is created, issued (or scheduled, for a future `issueDate`) and its email queued, or nothing changes. Without a recipient email nothing is sent.",
    body: CreateCredentialBody,
    success: { status: 201, description: "The issued credential", schema: CredentialResponse },
    errors: ["payment_required"],
    handle: async ({ caller, body }) => ({ status: 201, body: await createIssueSendCredential(caller.organization, body) }),
  }),
});
