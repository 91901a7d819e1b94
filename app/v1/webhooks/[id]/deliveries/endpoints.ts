import { z } from "zod";
import { defineRoute, endpoint, idParams } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { paginationQuery } from "@/lib/core/pagination";
import { WebhookAttemptResponse } from "@/lib/webhooks/schema";
import { listWebhookAttempts } from "@/lib/webhooks/service";

export const deliveriesRoute = defineRoute("/v1/webhooks/{id}/deliveries", {
  GET: endpoint({
    params: idParams,
    tag: "Webhooks",
    summary: "List delivery attempts to an endpoint, newest first",
    description:
      "Each attempt: the event's id and type, the attempt number, the answer's status or the error, the duration, the start of the answer's body, the time.",
    query: z.strictObject(paginationQuery),
    success: { status: 200, description: "A page of attempts", schema: pageOf(WebhookAttemptResponse) },
    errors: ["not_found"],
    handle: async ({ caller, params, query }) => ({
      status: 200,
      body: await listWebhookAttempts(caller.organization.id, params.id, query),
    }),
  }),
});
