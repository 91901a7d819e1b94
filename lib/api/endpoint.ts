// The one wrapper every /v1 route goes through. It runs the request checks in order (docs/api.md, Every /v1 request)
// (HTTPS, version, token, rate limit, size, JSON, Idempotency-Key, validation), then the endpoint's handler, and turns
// every ApiError — and anything unexpected — into the error envelope. A route file only declares its
// schemas and calls one service.
import { z } from "zod";
import { config } from "../config";
import { errorSummary, log } from "../log";
import { authenticateApiToken, type Caller } from "../organizations/service";
import { clientConnection, plainHttpAllowed } from "../net/client-connection";
import { findInJson, type JsonPath } from "../core/json-walk";
import { JsonTooDeepError, parseUntrustedJson } from "../core/json-text";
import { singleLineText, unicodeProblem, unicodeProblemsIn } from "../core/text";
import { ApiError, invalidField, invalidFields, type ErrorCode, type ErrorDetail } from "../core/errors";
import { errorResponse, internalError } from "./envelope";
import { requestIdOf } from "./request-id";
import { searchParamsOf, unroutableMethodOf } from "./request-target";
import { rateLimitHeaders } from "../rate-limit/token-buckets";
import { apiTokenLimiter } from "../rate-limit/shared-rate-limit";
import { formatPath, safeParseWithDetails } from "../core/validation";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_METHODS,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyProblem,
  requestFingerprint,
} from "../core/idempotency";
import { claimIdempotencyKey, keepIdempotentAnswer, releaseIdempotencyKey, type Claim, type KeptAnswer } from "../idempotency/service";

export const SERVICE_VERSION = "2022-10-26";
/** Another name for the Service-Version header, sent by clients written for the hosted API. */
export const VERSION_HEADER_ALIAS = "certifier-version";
export const MAX_BODY_BYTES = 1024 * 1024;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ApiResult = { status: number; body?: unknown; headers?: Record<string, string> };

export type EndpointContext<B, Q, P> = {
  caller: Caller;
  body: B;
  query: Q;
  params: P;
  requestId: string;
  request: Request;
};

export type EndpointDefinition<B = unknown, Q = unknown, P = unknown> = {
  summary: string;
  description?: string;
  tag: string;
  /** "none": public, no token (the OpenAPI document itself). */
  auth?: "token" | "none";
  /** A JSON object body is expected and validated with this schema. */
  body?: z.ZodType<B>;
  /**
   * The body may be left out (no body, or only whitespace) and is then read as `{}`: for a body whose
   * fields are all optional, so that a client with nothing to say need not send one (revoke).
   */
  bodyOptional?: boolean;
  /** Query parameters, validated strictly (unknown parameters are a validation error). */
  query?: z.ZodType<Q>;
  /** Path parameters (`{id}` in the route's path). A value the schema refuses names nothing: 404. */
  params?: z.ZodType<P>;
  /** The success response, for the OpenAPI document. */
  success: { status: number; description: string; schema?: z.ZodType };
  /** The answer carries a secret shown once: an Idempotency-Key's kept copy of it is stored encrypted. */
  answerHoldsSecret?: boolean;
  /** Error codes this endpoint can answer besides the ones every endpoint has. */
  errors?: ErrorCode[];
  handle: (ctx: EndpointContext<B, Q, P>) => Promise<ApiResult | Response>;
};

/** Declares one endpoint; a function only so that B, Q and P are inferred from the schemas. */
export function endpoint<B = undefined, Q = Record<string, never>, P = Record<string, never>>(
  definition: EndpointDefinition<B, Q, P>,
): EndpointDefinition<B, Q, P> {
  return definition;
}

/** The id of a resource in a path: what every `{id}` route declares as its `params`. */
export const idParams = z.strictObject({ id: singleLineText().min(1).max(100) });

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

export type RouteDefinition = {
  path: string;
  endpoints: Partial<Record<HttpMethod, EndpointDefinition<any, any, any>>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- holds endpoints of every body and query type; each checks its own
  handlers: Record<HttpMethod | "HEAD" | "OPTIONS", RouteHandler>;
};

/** Per token, shared by every route bundle of the process; where it is kept: lib/rate-limit/shared-rate-limit.ts. */
const limiter = apiTokenLimiter;

/** Headers every /v1 response starts with. Until a token is known no quota is spent: the rate-limit
 *  headers state the policy with a full bucket. */
function baseHeaders(requestId: string): Record<string, string> {
  const burst = String(config().rateLimitBurst);
  return {
    "X-Request-Id": requestId,
    "Cache-Control": "no-store",
    "RateLimit-Limit": burst,
    "RateLimit-Remaining": burst,
    "RateLimit-Reset": "0",
  };
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * The request's body stopped arriving: the client hung up, or the server dropped it for being too slow
 * (server.ts logs that). No answer can reach the client; nothing went wrong on our side.
 */
export class BodyAbandonedError extends Error {
  constructor() {
    super("The request's body did not arrive in full.");
    this.name = "BodyAbandonedError";
  }
}

/**
 * What a handler's thrown error answers: an ApiError as itself; a body the client abandoned with a 400
 * no one will read (`abandoned`: the client's doing, logged as such); anything else with the internal
 * error, logged by the caller as a failure (`fault`).
 */
export function answerForError(error: unknown, requestId: string): { apiError: ApiError; abandoned: boolean; fault: boolean } {
  if (error instanceof ApiError) return { apiError: error, abandoned: false, fault: false };
  if (error instanceof BodyAbandonedError) return { apiError: new ApiError("bad_request", error.message), abandoned: true, fault: false };
  return { apiError: internalError(requestId), abandoned: false, fault: true };
}

/** The body's bytes, reading at most `maxBytes` of it (a larger body is refused as soon as it is seen). */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new BodyAbandonedError();
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, read only up to `maxBytes`: a larger one is refused before it is all read. */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readBodyBytes(request, maxBytes);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8 text.");
  }
}

// Fatal: a body with broken UTF-8 is refused rather than silently given U+FFFD in its place.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function tooLarge(maxBytes: number): ApiError {
  const limit = maxBytes === MAX_BODY_BYTES ? `${MAX_BODY_BYTES} bytes (1 MiB)` : `${maxBytes} bytes`;
  return new ApiError("payload_too_large", `The request body is larger than ${limit}.`);
}

/**
 * Paths of `__proto__` keys anywhere in parsed JSON. JSON.parse keeps them as own properties, but
 * copying such an object (as schema validation does) silently drops them or, worse, sets a prototype;
 * they are reported as the unknown fields they are.
 */
export function protoKeyPaths(root: unknown): JsonPath[] {
  return findInJson(root, (key) => (key === "__proto__" ? { message: "is not a known field" } : null)).map((f) => f.path);
}

/**
 * A body nested deeper than any input needs is refused as invalid, naming the top-level field it is in:
 * it is JSON, but no schema here takes it, and walking it would overflow the call stack.
 */
export function tooDeep(error: JsonTooDeepError, path = error.field ?? "(body)"): ApiError {
  return invalidField(path, error.message);
}

export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === "") throw new ApiError("invalid_json", "The request body must be a JSON object; it was empty.");
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw tooDeep(error);
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("invalid_json", "The request body must be a JSON object.");
  }
  const protoKeys = protoKeyPaths(value);
  if (protoKeys.length) throw invalidFields(protoKeys.map((p) => ({ path: formatPath(p), message: "is not a known field" })));
  const badText = unicodeProblemsIn(value);
  if (badText.length) throw invalidFields(badText.map((f) => ({ path: formatPath(f.path), message: f.message })));
  return value as Record<string, unknown>;
}

/**
 * The query string as an object for validation, and what is wrong with it beyond its schema: a
 * parameter given twice (which value counts would be a guess), `__proto__` (an own property that
 * validation would not see as unknown), and values that are not valid Unicode text.
 */
export function readQuery(searchParams: URLSearchParams): { query: Record<string, string>; details: ErrorDetail[] } {
  const query: Record<string, string> = {};
  const details: ErrorDetail[] = [];
  for (const [name, value] of searchParams) {
    const problem =
      name === "__proto__"
        ? "is not a known field"
        : Object.hasOwn(query, name)
          ? "must be given once"
          : (unicodeProblem(name) ?? unicodeProblem(value));
    if (problem) {
      if (!details.some((d) => d.path === name)) details.push({ path: queryParameterPath(name), message: problem });
      continue;
    }
    query[name] = value;
  }
  return { query, details };
}

/** A parameter's name as a details path, or a stand-in when the name itself is not printable text. */
function queryParameterPath(name: string): string {
  return unicodeProblem(name) ? "(query parameter name)" : name;
}

/**
 * Query or path parameters of an endpoint that takes none. One instance for every request: zod compiles
 * a parser for an object schema the first time it parses (\`new Function\`), which per request cost
 * about a tenth of a search's CPU time in bench:api.
 */
const NOTHING = z.strictObject({});

/** Path parameters, checked with the endpoint's schema; a value it refuses names nothing: not found. */
async function readParams(
  promised: Promise<Record<string, string | string[] | undefined>>,
  schema: z.ZodType | undefined,
): Promise<unknown> {
  const raw = Object.fromEntries(Object.entries((await promised) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]));
  const parsed = (schema ?? NOTHING).safeParse(raw);
  if (!parsed.success) throw new ApiError("not_found", "Not found: the path names no resource.");
  return parsed.data;
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  return match ? match[1]! : null;
}

/** The checks before a token is known: HTTPS (1) and version (2, 3). */
function checkTransportAndVersion(request: Request) {
  const cfg = config();
  if (!plainHttpAllowed(clientConnection(request.headers, cfg.trustProxy), cfg.allowHttp)) {
    throw new ApiError("forbidden", "HTTPS is required: this API does not accept plain HTTP requests.");
  }
  const version = requestedVersion(request.headers);
  if (version === null) {
    throw new ApiError("missing_version", `The Service-Version header is required; the current version is ${SERVICE_VERSION}.`);
  }
  if (version.trim() !== SERVICE_VERSION) {
    throw new ApiError("invalid_version", `Service-Version "${version.slice(0, 40)}" is not supported; use ${SERVICE_VERSION}.`);
  }
}

/**
 * The version the client asks for. Published clients of the hosted API this service mirrors send it as
 * `Certifier-Version` (docs/api.md, Clients written for the hosted API), so that name is read too; a request that sends both with
 * different values asks for two versions at once, which is refused rather than guessed.
 */
function requestedVersion(headers: Headers): string | null {
  const service = headers.get("service-version");
  const alias = headers.get(VERSION_HEADER_ALIAS);
  if (service !== null && alias !== null && service.trim() !== alias.trim()) {
    throw new ApiError(
      "invalid_version",
      `Service-Version and Certifier-Version disagree ("${service.slice(0, 40)}", "${alias.slice(0, 40)}"); send one, ${SERVICE_VERSION}.`,
    );
  }
  return service ?? alias;
}

function runEndpoint(definition: EndpointDefinition<unknown, unknown, unknown>): RouteHandler {
  return async (request, context) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const headers = baseHeaders(requestId);
    let organizationId: string | undefined;
    // Set once this request holds an Idempotency-Key: its answer is then kept (or the key freed).
    let claimId: string | null = null;
    let abandoned = false;
    let response: Response;
    try {
      let caller: Caller | null = null;
      if (definition.auth !== "none") {
        checkTransportAndVersion(request);
        const token = bearerToken(request);
        caller = token ? await authenticateApiToken(token) : null;
        if (!caller) {
          throw new ApiError("unauthorized", "A valid API token is required: send it as 'Authorization: Bearer <token>'.");
        }
        organizationId = caller.organization.id;
        const rate = await limiter().take(caller.tokenId);
        Object.assign(headers, rateLimitHeaders(rate));
        if (!rate.allowed) {
          throw new ApiError("rate_limited", `Too many requests for this token; retry in ${rate.retryAfterSeconds} s.`, {
            headers: { "Retry-After": String(rate.retryAfterSeconds) },
          });
        }
      }

      const bodyText = definition.body || request.headers.get("content-length") !== null ? await readBody(request) : "";
      const bodyLeftOut = definition.bodyOptional === true && bodyText.trim() === "";
      const rawBody = definition.body ? (bodyLeftOut ? {} : parseJsonObject(bodyText)) : undefined;

      const { query: rawQuery, details } = readQuery(searchParamsOf(request));
      let body: unknown = undefined;
      let query: unknown = {};
      if (definition.body) {
        const parsed = safeParseWithDetails(definition.body, rawBody);
        if (parsed.ok) body = parsed.data;
        else details.push(...parsed.details);
      }
      const parsedQuery = safeParseWithDetails(definition.query ?? NOTHING, rawQuery);
      if (parsedQuery.ok) query = parsedQuery.data;
      else details.push(...parsedQuery.details);

      // The key is claimed after the JSON check and before validation answers, so that a request
      // refused as invalid is kept and replayed like any other 4xx (docs/api.md, Idempotent retries); a body
      // too large or not JSON has no parsed body to compare and answers the same on every retry anyway.
      if (caller) {
        const claim = await claimIdempotency(request, caller.organization.id, rawBody, details);
        if (claim && "replay" in claim) {
          response = replayed(claim.replay, headers);
          return response;
        }
        claimId = claim?.claimId ?? null;
      }
      if (details.length) throw invalidFields(details);

      const params = await readParams(context.params, definition.params);
      const result = await definition.handle({ caller: caller as Caller, body, query, params, requestId, request });
      if (result instanceof Response) {
        for (const [k, v] of Object.entries(headers)) if (!result.headers.has(k)) result.headers.set(k, v);
        response = result;
      } else {
        response = json(result.status, result.body, { ...headers, ...result.headers });
      }
    } catch (error) {
      const answer = answerForError(error, requestId);
      abandoned = answer.abandoned;
      if (answer.fault)
        log.error("request_failed", { requestId, method: request.method, path: new URL(request.url).pathname, ...errorSummary(error) });
      response = errorResponse(answer.apiError, requestId, headers);
    } finally {
      if (claimId) response = await settleIdempotency(claimId, response!, requestId, definition.answerHoldsSecret === true);
      // A request whose client left has no status: what it was sent never reached anyone.
      log.info(abandoned ? "request_abandoned" : "request", {
        requestId,
        method: request.method,
        path: new URL(request.url).pathname,
        ...(abandoned ? {} : { status: response!.status }),
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(organizationId ? { organizationId } : {}),
      });
    }
    return response;
  };
}

/**
 * The request's Idempotency-Key claimed (docs/api.md, Idempotent retries), or the earlier answer it gets
 * instead; null when it sends none or its method does not take one. A malformed key is a validation
 * error reported with the request's other invalid fields, before anything is claimed.
 */
async function claimIdempotency(request: Request, organizationId: string, rawBody: unknown, details: ErrorDetail[]): Promise<Claim | null> {
  const method = request.method.toUpperCase();
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null || !IDEMPOTENT_METHODS.includes(method)) return null;
  const problem = idempotencyKeyProblem(key);
  if (problem) throw invalidFields([{ path: IDEMPOTENCY_KEY_HEADER, message: problem }, ...details]);
  const path = new URL(request.url).pathname;
  return claimIdempotencyKey({ organizationId, key, method, path, fingerprint: requestFingerprint(method, path, rawBody) });
}

/** Headers that describe this one exchange, not the answer: never kept for a replay. */
const PER_REQUEST_HEADERS = new Set(["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"]);

/** Keeps the answer for retries, or frees the key when we failed (5xx) so that a retry runs again. */
async function settleIdempotency(claimId: string, response: Response, requestId: string, sealBody: boolean): Promise<Response> {
  try {
    if (response.status >= 500) {
      await releaseIdempotencyKey(claimId);
      return response;
    }
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!PER_REQUEST_HEADERS.has(name.toLowerCase())) kept[name] = value;
    });
    const body = response.body === null ? null : await response.clone().text();
    await keepIdempotentAnswer(claimId, { status: response.status, headers: kept, body }, new Date(), { sealBody });
  } catch (error) {
    // The answer stands; the claim lapses with its lease and a retry then runs as new.
    log.error("idempotency_keep_failed", { requestId, ...errorSummary(error) });
  }
  return response;
}

/** A kept answer, sent again with this request's own id and rate-limit headers. */
function replayed(answer: KeptAnswer, headers: Record<string, string>): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { ...answer.headers, ...headers, [IDEMPOTENT_REPLAYED_HEADER]: "true" },
  });
}

function methodNotAllowed(allowed: string): RouteHandler {
  return async (request) => refuseMethod(request, request.method.toUpperCase(), allowed);
}

function refuseMethod(request: Request, method: string, allowed: string): Response {
  const requestId = requestIdOf(request);
  const error = new ApiError("method_not_allowed", `${method} is not allowed here; allowed: ${allowed}.`);
  return errorResponse(error, requestId, { ...baseHeaders(requestId), Allow: allowed });
}

/** OPTIONS states what the route allows; a method Next cannot route arrives here too (server.ts) and is refused. */
function options(allowed: string): RouteHandler {
  return async (request) => {
    const unroutable = unroutableMethodOf(request);
    if (unroutable) return refuseMethod(request, unroutable, allowed);
    return new Response(null, { status: 204, headers: { ...baseHeaders(requestIdOf(request)), Allow: allowed } });
  };
}

/** A /v1 route: the endpoints it has, and a handler for every HTTP method (405 for the others). */
export function defineRoute(path: string, endpoints: RouteDefinition["endpoints"]): RouteDefinition {
  const methods = HTTP_METHODS.filter((m) => endpoints[m]);
  const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const handlers = Object.fromEntries(
    HTTP_METHODS.map((m) => [
      m,
      endpoints[m] ? runEndpoint(endpoints[m] as EndpointDefinition<unknown, unknown, unknown>) : methodNotAllowed(allow),
    ]),
  ) as Record<HttpMethod, RouteHandler>;
  // HEAD answers like GET (Node sends no body for it); OPTIONS states what the route allows.
  return { path, endpoints, handlers: { ...handlers, HEAD: handlers.GET, OPTIONS: options(allow) } };
}

/** For unknown paths under /v1 (the catch-all route). */
export async function unknownRoute(request: Request): Promise<Response> {
  const method = unroutableMethodOf(request) ?? request.method;
  const requestId = requestIdOf(request);
  const error = new ApiError("not_found", `No such endpoint: ${method} ${new URL(request.url).pathname}.`);
  return errorResponse(error, requestId, baseHeaders(requestId));
}
