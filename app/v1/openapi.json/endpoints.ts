import { defineRoute, endpoint } from "@/lib/api/endpoint";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/config";

let cached: unknown;

export const openApiRoute = defineRoute("/v1/openapi.json", {
  GET: endpoint({
    tag: "Reference",
    summary: "This OpenAPI 3.1 document (no token needed)",
    auth: "none",
    success: { status: 200, description: "The OpenAPI document" },
    handle: async () => {
      // Imported lazily: the registry imports this module too.
      const { V1_ROUTES } = await import("../registry");
      cached ??= buildOpenApiDocument(V1_ROUTES, `${config().publicUrl}`);
      return { status: 200, body: cached, headers: { "Cache-Control": "public, max-age=300" } };
    },
  }),
});
