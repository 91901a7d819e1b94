import { z } from "zod";
import { defineRoute, endpoint, type RouteDefinition } from "@/lib/api/endpoint";
import { buildOpenApiDocument, type PublicDocumentPath } from "@/lib/api/openapi";
import { config } from "@/lib/config";
import { OpenBadgeCredentialResponse, StatusListCredentialResponse } from "@/lib/verifiable/schema";
import { API_ROUTES } from "../registry";

let cached: unknown;

/** The outline of an OpenAPI 3.1 document, for this operation's own entry in it (the rest is OpenAPI's to define). */
const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export const openApiRoute: RouteDefinition = defineRoute("/v1/openapi.json", {
  GET: endpoint({
    tag: "Reference",
    summary: "This OpenAPI 3.1 document (no token needed)",
    auth: "none",
    success: { status: 200, description: "The OpenAPI document", schema: OpenApiDocument },
    handle: async () => {
      cached ??= buildOpenApiDocument(allV1Routes(), config().publicUrl, publicDocumentPaths());
      return { status: 200, body: cached, headers: { "Cache-Control": "public, max-age=300" } };
    },
  }),
});

/** Every /v1 route, this one included. */
export function allV1Routes(): RouteDefinition[] {
  return [...API_ROUTES, openApiRoute];
}

/** The public verifiable-credential documents (served outside /v1, without a token). */
export function publicDocumentPaths(): PublicDocumentPath[] {
  return [
    {
      path: "/credentials/{publicId}/credential.json",
      serverUrl: config().walletUrl,
      tag: "Verifiable credentials",
      summary: "A credential as a signed Open Badges 3.0 credential (public)",
      description:
        "The same document as `GET /v1/credentials/{id}/verifiable-credential`, public like the wallet page: 404 for unknown, draft, scheduled and deleted credentials. A revoked credential's document is still served; its status list says it is revoked. `Cache-Control: public, max-age=60`.",
      schema: OpenBadgeCredentialResponse,
    },
    {
      path: "/organizations/{slug}/status/{list}",
      serverUrl: config().publicUrl,
      tag: "Verifiable credentials",
      summary: "An organization's signed revocation status list (public)",
      description:
        "A `BitstringStatusListCredential` (Bitstring Status List v1.0, 131,072 entries) signed with the organization's key, named by the `statusListCredential` of its credentials. A revoked (or deleted) credential's bit is set. `Cache-Control: public, max-age=60`.",
      schema: StatusListCredentialResponse,
    },
  ];
}
