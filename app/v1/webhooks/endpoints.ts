import { z } from "zod";
import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { CreateWebhookBody, WebhookEndpointResponse, WebhookEndpointWithSecret } from "@/lib/webhooks/schema";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/service";

export const webhooksRoute = defineRoute("/v1/webhooks", {
  GET: endpoint({
    tag: "Webhooks",
    summary: "List webhook endpoints, newest first",
    query: z.strictObject(paginationQuery),
    success: { status: 200, description: "A page of endpoints (without secrets)", schema: pageOf(WebhookEndpointResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listWebhookEndpoints(caller.organization.id, query) }),
  }),
  POST: endpoint({
    tag: "Webhooks",
    summary: "Add a webhook endpoint",
    description:
      "`url` must be `https` (`http` only for loopback hosts) and resolve to public addresses only. `events` names the events to send (`*`: all): " +
      "`credential.created`, `credential.updated`, `credential.issued`, `credential.sent`, `credential.revoked`, `credential.deleted`, " +
      "`credential.expiring` (the day the group's expiry reminder goes), `credential.expired` (the first day the credential reads as expired), " +
      "`credential_interaction.created`, `group.created`, `group.updated`, `group.deleted`, `correction_request.created`, `correction_request.resolved`. The answer carries the signing `secret`, shown this once. " +
      "Each delivery is a POST of `{id, type, createdAt, data}` signed as Standard Webhooks signs (`webhook-id`, `webhook-timestamp`, `webhook-signature`), " +
      "retried with exponential backoff for 24 hours until a 2xx answer.",
    answerHoldsSecret: true,
    body: CreateWebhookBody,
    success: { status: 201, description: "The endpoint with its signing secret", schema: WebhookEndpointWithSecret },
    errors: ["conflict"],
    handle: async ({ caller, body }) => ({ status: 201, body: await createWebhookEndpoint(caller.organization.id, body) }),
  }),
});
