import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { UpdateWebhookBody, WebhookEndpointResponse } from "@/lib/webhooks/schema";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/service";

export const webhookRoute = defineRoute("/v1/webhooks/{id}", {
  GET: endpoint({
    params: idParams,
    tag: "Webhooks",
    summary: "Get a webhook endpoint",
    success: { status: 200, description: "The endpoint (without its secret)", schema: WebhookEndpointResponse },
    errors: ["not_found"],
    handle: async ({ caller, params }) => ({ status: 200, body: await getWebhookEndpoint(caller.organization.id, params.id) }),
  }),
  PATCH: endpoint({
    params: idParams,
    tag: "Webhooks",
    summary: "Change a webhook endpoint",
    description:
      "Fields not sent are left unchanged. `enabled: false` stops deliveries (queued ones wait); `enabled: true` resumes them and clears `disabledReason`.",
    body: UpdateWebhookBody,
    success: { status: 200, description: "The endpoint", schema: WebhookEndpointResponse },
    errors: ["not_found"],
    handle: async ({ caller, params, body }) => ({
      status: 200,
      body: await updateWebhookEndpoint(caller.organization.id, params.id, body),
    }),
  }),
  DELETE: endpoint({
    params: idParams,
    tag: "Webhooks",
    summary: "Delete a webhook endpoint",
    description: "Nothing more is sent to it; its delivery log goes with it.",
    success: { status: 204, description: "Deleted" },
    errors: ["not_found"],
    handle: async ({ caller, params }) => {
      await deleteWebhookEndpoint(caller.organization.id, params.id);
      return { status: 204 };
    },
  }),
});
