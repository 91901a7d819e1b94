import { defineRoute, endpoint, type RouteDefinition } from "@/lib/api/endpoint";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/config";
import { API_ROUTES } from "../registry";

let cached: unknown;

export const openApiRoute: RouteDefinition = defineRoute("/v1/openapi.json", {
  GET: endpoint({
    tag: "Reference",
    summary: "This OpenAPI 3.1 document (no token needed)",
    auth: "none",
    success: { status: 200, description: "The OpenAPI document" },
    handle: async () => {
      cached ??= buildOpenApiDocument(allV1Routes(), config().publicUrl);
      return { status: 200, body: cached, headers: { "Cache-Control": "public, max-age=300" } };
    },
  }),
});

/** Every /v1 route, this one included. */
export function allV1Routes(): RouteDefinition[] {
  return [...API_ROUTES, openApiRoute];
}
