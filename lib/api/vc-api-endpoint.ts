// The wrapper of the VC API's token routes (/vc-api/credentials/issue and /status): the same API
// tokens, HTTPS rule, per-token rate limit, body limits (size, depth, text) and error envelope as /v1,
// but no Service-Version header, since VC API clients are written to the W3C VC API and do not send
// one. Errors are answered in our envelope `{"error":{"code","message","details?"}}` (the VC API
// leaves the error body to the implementation).
import { ApiError } from "../core/errors";
import { errorSummary, log } from "../log";
import { authenticateApiToken, type Caller } from "../organizations/service";
import { rateLimitHeaders } from "../rate-limit/token-buckets";
import { apiTokenLimiter } from "../rate-limit/shared-rate-limit";
import { answerForError, bearerToken, checkTransport, parseJsonObject, readBody } from "./endpoint";
import { errorResponse } from "./envelope";
import { requestIdOf } from "./request-id";

export type VcApiRequest = { caller: Caller; body: Record<string, unknown>; requestId: string };

export function vcApiEndpoint(
  handle: (ctx: VcApiRequest) => Promise<{ status: number; body: unknown }>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const path = new URL(request.url).pathname;
    const headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store" };
    let organizationId: string | undefined;
    let abandoned = false;
    let response: Response;
    try {
      checkTransport(request);
      const token = bearerToken(request);
      const caller = token ? await authenticateApiToken(token) : null;
      if (!caller) throw new ApiError("unauthorized", "A valid API token is required: send it as 'Authorization: Bearer <token>'.");
      organizationId = caller.organization.id;
      const rate = await apiTokenLimiter().take(caller.tokenId);
      Object.assign(headers, rateLimitHeaders(rate));
      if (!rate.allowed) {
        throw new ApiError("rate_limited", `Too many requests for this token; retry in ${rate.retryAfterSeconds} s.`, {
          headers: { "Retry-After": String(rate.retryAfterSeconds) },
        });
      }
      const body = parseJsonObject(await readBody(request));
      const result = await handle({ caller, body, requestId });
      response = Response.json(result.body, { status: result.status, headers });
    } catch (error) {
      const answer = answerForError(error, requestId);
      abandoned = answer.abandoned;
      if (answer.fault) log.error("request_failed", { requestId, method: request.method, path, ...errorSummary(error) });
      response = errorResponse(answer.apiError, requestId, headers);
    }
    const ms = Math.round((performance.now() - started) * 10) / 10;
    if (abandoned) log.info("request_abandoned", { requestId, method: request.method, path, ms });
    else
      log.info("request", {
        requestId,
        method: request.method,
        path,
        status: response.status,
        ms,
        ...(organizationId ? { organizationId } : {}),
      });
    return response;
  };
}
