import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { WebhookEndpointWithSecret } from "@/lib/webhooks/schema";
import { rotateWebhookSecret } from "@/lib/webhooks/service";

export const rotateSecretRoute = defineRoute("/v1/webhooks/{id}/rotate-secret", {
  POST: endpoint({
    params: idParams,
    tag: "Webhooks",
    summary: "Rotate an endpoint's signing secret",
    description:
      "Answers the new secret, shown this once. For 24 hours the old secret keeps signing alongside it: each delivery then carries two space-separated signatures, so a receiver can switch without missing an event.",
    answerHoldsSecret: true,
    success: { status: 200, description: "The endpoint with its new signing secret", schema: WebhookEndpointWithSecret },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => ({ status: 200, body: await rotateWebhookSecret(caller.organization.id, params.id) }),
  }),
});
