// The OpenAPI 3.1 document, built from the same zod schemas the routes validate with, so the
// reference cannot drift from the behaviour.
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../core/errors";
import { HTTP_METHODS, SERVICE_VERSION, VERSION_HEADER_ALIAS, type RouteDefinition } from "./endpoint";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS, IDEMPOTENT_REPLAYED_HEADER } from "../core/idempotency";

/**
 * What any operation may answer: its query is validated strictly (an unknown parameter is refused),
 * anything unexpected is a 500, and a 503 comes from a process that serves no requests (a worker-only
 * process, `CIS_BACKGROUND=only`) or that could not get a database connection in time.
 */
const EVERY_OPERATION_ERRORS: ErrorCode[] = ["validation_error", "internal_server_error", "service_unavailable"];
/** What an operation that needs a token may answer before it runs: HTTPS, version, token and rate limit. */
const TOKEN_OPERATION_ERRORS: ErrorCode[] = ["forbidden", "missing_version", "invalid_version", "unauthorized", "rate_limited"];
const BODY_ERRORS: ErrorCode[] = ["payload_too_large", "invalid_json", "validation_error"];
/** What an operation that takes an Idempotency-Key may answer because of it (docs/api.md, Idempotent retries). */
const IDEMPOTENCY_ERRORS: ErrorCode[] = ["validation_error", "conflict", "idempotency_key_reused"];

function schemaOf(schema: z.ZodType, io: "input" | "output") {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * A token-free document the service serves outside /v1 (a signed credential, a status list), listed
 * in the reference with the server it is served from. Answers 200 with the document, 304 to a
 * matching If-None-Match, or the error envelope with 404.
 */
export type PublicDocumentPath = { path: string; serverUrl: string; tag: string; summary: string; description: string; schema: z.ZodType };

function publicDocumentItem(doc: PublicDocumentPath) {
  return {
    get: {
      tags: [doc.tag],
      summary: doc.summary,
      description: doc.description,
      operationId: `get${doc.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_: string, c?: string) => (c ? c.toUpperCase() : ""))}`,
      servers: [{ url: doc.serverUrl }],
      security: [],
      parameters: [...doc.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } })),
      responses: {
        200: { description: "The document, with an ETag", content: { "application/json": { schema: schemaOf(doc.schema, "output") } } },
        304: { description: "Not modified (If-None-Match named the current ETag)" },
        404: { description: "not_found", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    },
  };
}

/** The alias as clients spell it (the service reads header names case-insensitively). */
const CERTIFIER_VERSION_HEADER = VERSION_HEADER_ALIAS.replace(
  /(^|-)([a-z])/g,
  (_: string, dash: string, c: string) => dash + c.toUpperCase(),
);

/**
 * One of the two names of the version header. Every token operation needs one of them, but neither is
 * `required`: OpenAPI cannot say "one of these two headers", and a validating proxy (Prism) refuses a
 * request that lacks a required header, so clients written for the hosted API (which send only
 * `Certifier-Version`) would be turned away before reaching a service that accepts them. The rule is
 * in the description, and sending neither is documented as the 400 `missing_version`.
 */
function versionHeader(name: string, other: string) {
  return {
    name,
    in: "header",
    required: false,
    description:
      `The API version, \`${SERVICE_VERSION}\`. Every request that needs a token must send it as \`Service-Version\` or as ` +
      `\`Certifier-Version\` (the name clients written for the hosted API use); sending neither is \`missing_version\` (400). ` +
      `Sending both with different values is \`invalid_version\` (400); with this header, \`${other}\` may be left out.`,
    schema: { type: "string", const: SERVICE_VERSION },
  };
}

export function buildOpenApiDocument(routes: RouteDefinition[], serverUrl: string, publicDocuments: PublicDocumentPath[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item: Record<string, unknown> = {};
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    for (const method of HTTP_METHODS) {
      const ep = route.endpoints[method];
      if (!ep) continue;
      const query = ep.query ? schemaOf(ep.query, "input") : null;
      const queryParams = query
        ? Object.entries((query.properties ?? {}) as Record<string, Record<string, unknown>>).map(([name, schema]) => ({
            name,
            in: "query",
            required: ((query.required as string[] | undefined) ?? []).includes(name),
            schema,
          }))
        : [];
      const takesKey = ep.auth !== "none" && IDEMPOTENT_METHODS.includes(method);
      const errorCodes = [
        ...new Set([
          ...(ep.auth === "none" ? [] : TOKEN_OPERATION_ERRORS),
          ...EVERY_OPERATION_ERRORS,
          ...(takesKey ? IDEMPOTENCY_ERRORS : []),
          ...(ep.body ? BODY_ERRORS : []),
          ...(ep.errors ?? []),
        ]),
      ];
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of errorCodes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
      const responses: Record<string, unknown> = {
        [ep.success.status]: {
          description: ep.success.description,
          ...(ep.success.schema ? { content: { "application/json": { schema: schemaOf(ep.success.schema, "output") } } } : {}),
        },
      };
      for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
        responses[status] = {
          description: codes.join(", "),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        };
      }
      item[method.toLowerCase()] = {
        tags: [ep.tag],
        summary: ep.summary,
        ...(ep.description ? { description: ep.description } : {}),
        operationId: `${method.toLowerCase()}${route.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_: string, c?: string) => (c ? c.toUpperCase() : ""))}`,
        ...(ep.auth === "none" ? { security: [] } : {}),
        parameters: [
          ...pathParams,
          ...queryParams,
          ...(ep.auth === "none"
            ? []
            : [{ $ref: "#/components/parameters/ServiceVersion" }, { $ref: "#/components/parameters/CertifierVersion" }]),
          ...(takesKey ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
        ],
        ...(ep.body
          ? { requestBody: { required: ep.bodyOptional !== true, content: { "application/json": { schema: schemaOf(ep.body, "input") } } } }
          : {}),
        responses,
      };
    }
    paths[route.path] = item;
  }
  for (const doc of publicDocuments) paths[doc.path] = publicDocumentItem(doc);
  return {
    openapi: "3.1.0",
    info: {
      title: "Credential Issuing Service API",
      version: SERVICE_VERSION,
      license: { name: "MIT", identifier: "MIT" },
      description:
        "Issue digital certificates and badges. Every request needs `Authorization: Bearer <token>` and `Service-Version: " +
        SERVICE_VERSION +
        '` (or the same value as `Certifier-Version`: one of the two headers is required, so both are listed as optional parameters). Errors use one envelope: `{"error":{"code","message","details?"}}`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      parameters: {
        ServiceVersion: versionHeader("Service-Version", CERTIFIER_VERSION_HEADER),
        CertifierVersion: versionHeader(CERTIFIER_VERSION_HEADER, "Service-Version"),
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: "header",
          required: false,
          description:
            "Makes a retry safe. The first request with a key runs; its status and body (unless 500 or over) are kept for 24 hours " +
            "per organization and key, and a later request with the same key, method, path and body (compared after JSON parsing) " +
            `gets them again with \`${IDEMPOTENT_REPLAYED_HEADER}: true\` and changes nothing. The same key with another method, path ` +
            "or body is `idempotency_key_reused` (422); while the first request runs, `conflict` (409). A claim whose request has " +
            "not answered within 60 s (its server stopped) lapses and the key runs as new.",
          schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", enum: Object.keys(ERROR_STATUS) },
                message: { type: "string" },
                details: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["path", "message"],
                    properties: { path: { type: "string" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
