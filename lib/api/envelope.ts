// The one error envelope of every route, /v1 or public, and of the answers the app's server gives
// before Next sees a request: `{"error":{"code","message","details?"}}`, its status from the one
// code→status table (lib/core/errors.ts), the request's id, never cached. Two adapters write it: as a
// Fetch Response (route handlers) and onto a Node response (server.ts, previews).
import type { ServerResponse } from "node:http";
import { ApiError } from "../core/errors";

export type Envelope = { status: number; headers: Record<string, string>; body: string };

export function errorEnvelope(error: ApiError, requestId: string, headers: Record<string, string> = {}): Envelope {
  return {
    status: error.status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...headers,
      ...error.headers,
      "X-Request-Id": requestId,
    },
    body: JSON.stringify(error.toBody()),
  };
}

/** What a client is told about a failure we did not expect: only the id to quote. */
export function internalError(requestId: string): ApiError {
  return new ApiError("internal_server_error", `Something went wrong on our side. Quote request id ${requestId} if you contact support.`);
}

export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  const envelope = errorEnvelope(error, requestId, headers);
  return new Response(envelope.body, { status: envelope.status, headers: envelope.headers });
}

/** Writes the envelope onto a Node response (no body for HEAD). */
export function sendError(
  res: ServerResponse,
  method: string | undefined,
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  const envelope = errorEnvelope(error, requestId, headers);
  res.writeHead(envelope.status, { ...envelope.headers, "Content-Length": Buffer.byteLength(envelope.body) });
  res.end(method === "HEAD" ? undefined : envelope.body);
}
