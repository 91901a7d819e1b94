// The one wrapper for the recipient's wallet JSON routes (/api/wallet/*): what lib/api/public-endpoint.ts
// gives every token-free route (request id, access log, the error envelope, a per-address rate limit,
// path parameters that name nothing answering 404), plus, in this order:
//   1. a request from another site is refused (403 `forbidden`): an Origin header that is not this
//      site's, or a browser's `Sec-Fetch-Site: cross-site`. The session cookie is SameSite=Lax too, but
//      Lax still sends it on a top-level cross-site navigation, and this check costs nothing;
//   2. `walletEndpoint` only: a live wallet session (lib/wallet/session.ts), else 401 `unauthorized`;
//   3. query parameters validated by a zod schema (unknown ones refused), then for a route with a body
//      schema a JSON object of at most 16 KiB (413 `payload_too_large`, 400 `invalid_json`, nesting
//      deeper than the JSON limit refused), validated into 400 `validation_error` naming each field;
//   4. the handler, whose answer (and every error) carries `Cache-Control: no-store`: what a wallet
//      shows belongs to one person and must not sit in a shared cache.
//
// Example, a route file app/api/wallet/me/things/[publicId]/route.ts:
//
//   import { z } from "zod";
//   import { walletEndpoint } from "@/lib/api/wallet-endpoint";
//
//   export const PATCH = walletEndpoint(
//     { params: z.object({ publicId: z.uuid() }), body: z.strictObject({ note: z.string().max(500) }) },
//     async ({ session, params, body }) => ({ status: 200, body: await updateThing(session.email, params.publicId, body) }),
//   );
//
// `session.email` is lower-cased; a handler finds the session's own rows by it and answers 404
// (`notFound(...)` from lib/core/errors) for anything that is not the session's, never 403, so that
// nobody learns what exists. Throw ApiError for any other refusal: the wrapper puts it in the envelope.
import { z } from "zod";
import { config } from "../config";
import { ApiError, invalidFields } from "../core/errors";
import { safeParseWithDetails } from "../core/validation";
import {
  walletSessionFromRequest,
  walletSessionSetCookie,
  walletTokenFromHeaders,
  requestIsHttps,
  type WalletSession,
} from "../wallet/session";
import { parseJsonObject, readBody, readQuery } from "./endpoint";
import { publicEndpoint, type AddressRateLimit } from "./public-endpoint";

export type WalletRequest<B, Q, P> = { request: Request; requestId: string; body: B; query: Q; params: P };
export type WalletResult = { status: number; body?: unknown; headers?: Record<string, string> };

export type WalletEndpointOptions<B, Q, P> = {
  /** A JSON object body is expected (at most 16 KiB) and validated with this schema. */
  body?: z.ZodType<B>;
  /** Query parameters, validated with this schema (make it strict: unknown parameters are refused). */
  query?: z.ZodType<Q>;
  /** Path parameters; a value the schema refuses names nothing: 404. */
  params?: z.ZodType<P>;
  /** Per client address; default 10 a second, 60 at once. */
  rateLimit?: AddressRateLimit;
};

export const MAX_WALLET_BODY_BYTES = 16 * 1024;
const DEFAULT_RATE_LIMIT: AddressRateLimit = { name: "wallet-me", perSecond: 10, burst: 60 };
const NO_QUERY = z.strictObject({});

/** The host of an Origin header; "null" and anything unparsable match no site. */
function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The hosts this site answers as: the request's own (as the client addressed it), the wallet's and the public URL's. */
function ownHosts(request: Request): string[] {
  const hosts = [new URL(config().walletUrl).host, new URL(config().publicUrl).host];
  const host = request.headers.get("host");
  if (host) hosts.push(host);
  if (config().trustProxy) {
    const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    if (forwarded) hosts.push(forwarded);
  }
  return hosts;
}

/** Refuses a browser's request from another site (403); a request with no Origin is no browser's cross-site write. */
export function refuseCrossSite(request: Request): void {
  const origin = request.headers.get("origin");
  const crossSite =
    request.headers.get("sec-fetch-site") === "cross-site" || (origin !== null && !ownHosts(request).includes(originHost(origin) ?? "\0"));
  if (crossSite) throw new ApiError("forbidden", "Requests from other sites are not allowed here.");
}

function walletRoute<B, Q, P>(
  options: WalletEndpointOptions<B, Q, P>,
  requireSession: boolean,
  handle: (ctx: WalletRequest<B, Q, P> & { session: WalletSession | null }) => Promise<WalletResult | Response>,
) {
  return publicEndpoint<P>(
    { params: options.params, rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT },
    async ({ request, params, requestId }) => {
      refuseCrossSite(request);
      const session = await walletSessionFromRequest(request);
      if (requireSession && !session) throw new ApiError("unauthorized", "Sign in to your wallet first.");
      const raw = readQuery(new URL(request.url).searchParams);
      if (raw.details.length) throw invalidFields(raw.details);
      const query = safeParseWithDetails(options.query ?? NO_QUERY, raw.query);
      if (!query.ok) throw invalidFields(query.details);
      let body: unknown = undefined;
      if (options.body) {
        const parsed = safeParseWithDetails(options.body, parseJsonObject(await readBody(request, MAX_WALLET_BODY_BYTES)));
        if (!parsed.ok) throw invalidFields(parsed.details);
        body = parsed.data;
      }
      const result = await handle({ request, requestId, session, params, query: query.data as Q, body: body as B });
      const response =
        result instanceof Response
          ? result
          : result.body === undefined
            ? new Response(null, { status: result.status, headers: result.headers })
            : Response.json(result.body, { status: result.status, headers: result.headers });
      return withNoStore(response, request, session);
    },
  );
}

/** no-store on every answer; a live session's cookie is sent again, so its 30 days count from its last use in the browser too. */
function withNoStore(response: Response, request: Request, session: WalletSession | null): Response {
  response.headers.set("Cache-Control", "no-store");
  const token = walletTokenFromHeaders(request.headers);
  if (session && token && !response.headers.has("set-cookie"))
    response.headers.append("Set-Cookie", walletSessionSetCookie(token, requestIsHttps(request.headers)));
  return response;
}

/** A `/api/wallet/me/*` route: a signed-in recipient only (401 `unauthorized` otherwise). */
export function walletEndpoint<B = undefined, Q = Record<string, never>, P = Record<string, never>>(
  options: WalletEndpointOptions<B, Q, P>,
  handle: (ctx: WalletRequest<B, Q, P> & { session: WalletSession }) => Promise<WalletResult | Response>,
) {
  return walletRoute(options, true, (ctx) => handle({ ...ctx, session: ctx.session! }));
}

/** A wallet route anyone may call (sign-in, sign-out): the same checks but the session, which it gets if there is one. */
export function walletPublicEndpoint<B = undefined, Q = Record<string, never>, P = Record<string, never>>(
  options: WalletEndpointOptions<B, Q, P>,
  handle: (ctx: WalletRequest<B, Q, P> & { session: WalletSession | null }) => Promise<WalletResult | Response>,
) {
  return walletRoute(options, false, handle);
}
