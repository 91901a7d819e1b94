// The wrapper for token-free routes (the wallet's own events and checks, organization logos; the
// public routes to come): the same request id, error envelope and access log as /v1, an optional
// per-client-address rate limit, path parameters checked by a schema (a value it refuses names
// nothing: 404), and for JSON routes a small body parsed and validated like /v1's.
import { z } from "zod";
import { ApiError, invalidFields } from "../core/errors";
import { rateLimitHeaders } from "../rate-limit/token-buckets";
import { addressSubject, sharedLimiter } from "../rate-limit/shared-rate-limit";
import { safeParseWithDetails } from "../core/validation";
import { config } from "../config";
import { errorSummary, log } from "../log";
import { clientConnection } from "../net/client-connection";
import { answerForError, parseJsonObject, readBody } from "./endpoint";
import { errorResponse } from "./envelope";
import { requestIdOf } from "./request-id";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** Requests per second and at once, per client address, for one named limit. */
export type AddressRateLimit = { name: string; perSecond: number; burst: number };

export type PublicRequest<P> = { request: Request; params: P; requestId: string };

/** Kept where lib/rate-limit/shared-rate-limit.ts decides: in the database on PostgreSQL, so every process counts the same requests. */
/** Path parameters of a route that has none: one schema instance, as zod compiles each on its first parse. */
const NO_PARAMS = z.object({});

function addressLimiter(limit: AddressRateLimit) {
  return sharedLimiter({ ...limit, name: `address.${limit.name}` });
}

export function publicEndpoint<P = Record<string, never>>(
  options: { params?: z.ZodType<P>; rateLimit?: AddressRateLimit },
  handle: (ctx: PublicRequest<P>) => Promise<Response>,
): (request: Request, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const path = new URL(request.url).pathname;
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    let status = 500;
    let abandoned = false;
    try {
      if (options.rateLimit) {
        const address = clientConnection(request.headers, config().trustProxy).address ?? "unknown";
        const rate = await addressLimiter(options.rateLimit).take(addressSubject(address));
        Object.assign(headers, rateLimitHeaders(rate));
        if (!rate.allowed) {
          throw new ApiError("rate_limited", `Too many requests; retry in ${rate.retryAfterSeconds} s.`, {
            headers: { "Retry-After": String(rate.retryAfterSeconds) },
          });
        }
      }
      const rawParams = Object.fromEntries(
        Object.entries((await context.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]),
      );
      const params = (options.params ?? (NO_PARAMS as unknown as z.ZodType<P>)).safeParse(rawParams);
      if (!params.success) throw new ApiError("not_found", "Not found: the path names no resource.");
      const response = await handle({ request, params: params.data, requestId });
      for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value);
      status = response.status;
      return response;
    } catch (error) {
      const answer = answerForError(error, requestId);
      abandoned = answer.abandoned;
      if (answer.fault) log.error("request_failed", { requestId, method: request.method, path, ...errorSummary(error) });
      status = answer.apiError.status;
      return errorResponse(answer.apiError, requestId, { ...headers, "Cache-Control": "no-store" });
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (abandoned) log.info("request_abandoned", { requestId, method: request.method, path, ms });
      else log.info("request", { requestId, method: request.method, path, status, ms });
    }
  };
}

/** The wallet page's JSON endpoints: a page load records a view and a few actions, for many people behind one address. */
const WALLET_RATE_LIMIT: AddressRateLimit = { name: "wallet", perSecond: 5, burst: 30 };
const MAX_PUBLIC_BODY_BYTES = 4096;

/** A token-free JSON POST: a body of at most 4 KiB, validated by `schema`, answered as JSON. */
export function publicJsonEndpoint<S extends z.ZodType>(
  schema: S,
  handle: (body: z.output<S>, request: Request) => Promise<{ status: number; body: unknown }>,
) {
  return publicEndpoint({ rateLimit: WALLET_RATE_LIMIT }, async ({ request }) => {
    // Read only up to the limit: a public route must not buffer whatever an anonymous client sends.
    const parsed = safeParseWithDetails(schema, parseJsonObject(await readBody(request, MAX_PUBLIC_BODY_BYTES)));
    if (!parsed.ok) throw invalidFields(parsed.details);
    const result = await handle(parsed.data, request);
    return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
  });
}

type RoutableMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const ROUTABLE_METHODS: RoutableMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Handlers for the methods a token-free route does not take, each answering 405 `method_not_allowed`
 * in the error envelope with the route's `Allow`. Without them Next answers 405 with an empty body and
 * no Allow. In a route file that takes POST only:
 * `export const { GET, PUT, PATCH, DELETE } = otherMethodsRefused("POST");`
 */
export function otherMethodsRefused<A extends RoutableMethod>(...allowed: A[]) {
  // Next answers HEAD from GET and OPTIONS by itself.
  const allow = [...allowed, ...(allowed.includes("GET" as A) ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse = publicEndpoint({}, async ({ request }) => {
    throw new ApiError("method_not_allowed", `${request.method} is not allowed here; allowed: ${allow}.`, { headers: { Allow: allow } });
  });
  const others = ROUTABLE_METHODS.filter((m): m is Exclude<RoutableMethod, A> => !allowed.includes(m as A));
  return Object.fromEntries(others.map((m) => [m, refuse])) as Record<Exclude<RoutableMethod, A>, typeof refuse>;
}

/**
 * The methods a read-only public route (a document, an image) does not take.
 * In a route file: `export const { POST, PUT, PATCH, DELETE } = readOnlyRoute();`
 */
export function readOnlyRoute() {
  return otherMethodsRefused("GET");
}
