// The request id every error envelope and access log line carries: the client's own X-Request-Id when
// it is a sensible token (so a caller can correlate its logs with ours), otherwise a fresh one. Used
// by the /v1 wrapper (lib/api/endpoint.ts) and by the app's server (server.ts) for the answers it
// gives before Next sees a request.
import { randomUUID } from "node:crypto";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id for a request whose X-Request-Id header is `given` (null or absent: none sent). */
export function requestIdFrom(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : `req_${randomUUID().replaceAll("-", "")}`;
}

export function requestIdOf(request: Request): string {
  return requestIdFrom(request.headers.get("x-request-id"));
}
