// The wallet page's own JSON endpoints: public (no token), rate-limited per client address, and
// answering errors in the same envelope as /v1.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { clientConnection } from "../api/client-connection";
import { ApiError, invalidFields } from "../core/errors";
import { TokenBucketLimiter, rateLimitHeaders } from "../core/rate-limit";
import { safeParseWithDetails } from "../core/validation";
import { parseJsonObject } from "../api/endpoint";
import { config } from "../config";
import { errorSummary, log } from "../log";
import { processSingleton } from "../core/process-singleton";

// A page load records a view and perhaps a few actions; this leaves room for many people behind one address.
const PER_SECOND = 5;
const BURST = 30;
const MAX_BODY_BYTES = 4096;

function limiter(): TokenBucketLimiter {
  return processSingleton("wallet.addressLimiter", () => new TokenBucketLimiter(PER_SECOND, BURST));
}

export function publicJsonEndpoint<S extends z.ZodType>(schema: S, handle: (body: z.output<S>) => Promise<{ status: number; body: unknown }>) {
  return async (request: Request): Promise<Response> => {
    const headers: Record<string, string> = { "Cache-Control": "no-store", "X-Request-Id": `req_${randomUUID().replaceAll("-", "")}` };
    try {
      const address = clientConnection(request.headers, config().trustProxy).address ?? "unknown";
      const rate = limiter().take(address);
      Object.assign(headers, rateLimitHeaders(rate));
      if (!rate.allowed) {
        throw new ApiError("rate_limited", `Too many requests; retry in ${rate.retryAfterSeconds} s.`, {
          headers: { "Retry-After": String(rate.retryAfterSeconds) },
        });
      }
      const text = await request.text();
      if (text.length > MAX_BODY_BYTES) throw new ApiError("payload_too_large", "The request body is too large.");
      const json = parseJsonObject(text);
      const parsed = safeParseWithDetails(schema, json);
      if (!parsed.ok) throw invalidFields(parsed.details);
      const result = await handle(parsed.data);
      return Response.json(result.body, { status: result.status, headers });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError("internal_server_error", "Something went wrong on our side.");
      if (!(error instanceof ApiError)) log.error("wallet_request_failed", errorSummary(error));
      return Response.json(apiError.toBody(), { status: apiError.status, headers: { ...headers, ...apiError.headers } });
    }
  };
}
