// The wrapper for an organization's OpenID4VCI endpoints (metadata, token, nonce, credential): the
// public wrapper's request id, access log and rate limit, plus what wallet apps need. Errors the
// protocol defines leave in the protocol's own body (`{"error","error_description"}`, RFC 6749 and
// OpenID4VCI), a bad access token as 401 with `WWW-Authenticate` (RFC 6750); anything else (an unknown
// organization: 404) in our envelope. Every answer allows any origin: wallet apps may run in browsers.
import { Oauth2ResourceUnauthorizedError, Oauth2ServerErrorResponseError } from "@openid4vc/oauth2";
import { z } from "zod";
import { organizationSlug } from "../organizations/schema";
import { publicEndpoint, type AddressRateLimit, type PublicRequest } from "./public-endpoint";

export type ProtocolAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/** A wallet app redeems a code, asks for a nonce and a credential: a few requests per claim. */
export const OID4VCI_RATE_LIMIT: AddressRateLimit = { name: "oid4vci", perSecond: 5, burst: 30 };

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, DPoP",
  "Access-Control-Expose-Headers": "WWW-Authenticate, DPoP-Nonce",
  "Access-Control-Max-Age": "600",
};

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

const slugParams = z.strictObject({ id: organizationSlug });

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** The protocol's own error answer for a library error, or null for any other error. */
function protocolError(error: unknown): Response | null {
  if (error instanceof Oauth2ServerErrorResponseError) {
    const { error: code, error_description } = error.errorResponse;
    return json(error.status, { error: code, ...(error_description ? { error_description } : {}) }, NO_STORE);
  }
  if (error instanceof Oauth2ResourceUnauthorizedError) {
    const challenge = error.wwwAuthenticateHeaders[0];
    const body = {
      error: challenge?.error ?? "invalid_token",
      error_description: challenge?.error_description ?? "An access token is required.",
    };
    return json(401, body, { ...NO_STORE, "WWW-Authenticate": error.toHeaderValue() });
  }
  return null;
}

function withCors(handler: (request: Request, context: never) => Promise<Response>) {
  return async (request: Request, context: never) => {
    const response = await handler(request, context);
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    return response;
  };
}

/**
 * One OpenID4VCI endpoint of the organization named by the `[id]` path segment (its slug). `handle`
 * answers JSON; `cache` is the Cache-Control of a success (protocol answers with secrets: no-store).
 */
export function oid4vciEndpoint(
  options: { cache?: string; rateLimit?: AddressRateLimit },
  handle: (ctx: PublicRequest<{ id: string }>) => Promise<ProtocolAnswer>,
) {
  return withCors(
    publicEndpoint({ params: slugParams, rateLimit: options.rateLimit }, async (ctx) => {
      try {
        const answer = await handle(ctx);
        const cache = options.cache ? { "Cache-Control": options.cache } : NO_STORE;
        return json(answer.status, answer.body, { ...cache, ...answer.headers });
      } catch (error) {
        const answer = protocolError(error);
        if (answer) return answer;
        throw error;
      }
    }),
  );
}

/** The CORS preflight of an OpenID4VCI endpoint. */
export async function oid4vciPreflight(): Promise<Response> {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
