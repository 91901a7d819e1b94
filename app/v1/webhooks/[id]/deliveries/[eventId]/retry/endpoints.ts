import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { DeliveryRetryParams, RetryAcceptedResponse } from "@/lib/webhooks/schema";
import { retryWebhookDelivery } from "@/lib/webhooks/service";

export const retryDeliveryRoute = defineRoute("/v1/webhooks/{id}/deliveries/{eventId}/retry", {
  POST: endpoint({
    params: DeliveryRetryParams,
    tag: "Webhooks",
    summary: "Send an event to an endpoint again now",
    description:
      "Queues one more attempt of an event this endpoint was sent (delivered or not); the answer does not wait for it. A disabled endpoint is a `conflict`: enable it first.",
    success: { status: 202, description: "Queued", schema: RetryAcceptedResponse },
    errors: ["not_found", "conflict"],
    handle: async ({ caller, params }) => ({
      status: 202,
      body: await retryWebhookDelivery(caller.organization.id, params.id, params.eventId),
    }),
  }),
});
