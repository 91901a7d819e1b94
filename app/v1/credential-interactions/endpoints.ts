import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { pageOf } from "@/lib/api/page-schema";
import { CreateInteractionBody, InteractionResponse, ListInteractionsQuery } from "@/lib/interactions/schema";
import { createInteraction, listInteractions } from "@/lib/interactions/service";

export const interactionsRoute = defineRoute("/v1/credential-interactions", {
  GET: endpoint({
    tag: "Interactions",
    summary: "List interaction events, newest first",
    description: "Filter by `credentialId` for one credential's events.",
    query: ListInteractionsQuery,
    success: { status: 200, description: "A page of events", schema: pageOf(InteractionResponse) },
    handle: async ({ caller, query }) => ({ status: 200, body: await listInteractions(caller.organization.id, query) }),
  }),
  POST: endpoint({
    tag: "Interactions",
    summary: "Record an interaction event",
    body: CreateInteractionBody,
    success: { status: 201, description: "The event", schema: InteractionResponse },
    handle: async ({ caller, body }) => ({ status: 201, body: await createInteraction(caller.organization.id, body) }),
  }),
});
