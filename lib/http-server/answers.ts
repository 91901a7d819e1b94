// Answers the app's server (server.ts) gives itself, without Next: the one error envelope
// (lib/api/envelope.ts) for API-ish paths, a small HTML page for the others. Every one carries the
// request's id (server.ts settles it before anything answers).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../core/errors";
import { errorEnvelope, internalError, sendError } from "../api/envelope";
import { requestIdFrom } from "../api/request-id";
import { log } from "../log";

/** Paths whose clients are programs: they get the JSON error envelope, not an HTML page. */
export function isApiPath(path: string): boolean {
  // Besides the API and the issuers' documents: a credential's signed document and baked image, which
  // verifiers and badge tools fetch (the wallet page beside them is for people).
  return (
    /^\/(?:v1|api|organizations|previews)(?:\/|$)/.test(path) ||
    /^\/credentials\/[^/]*\/(?:credential\.json|badge\.png|qr\.svg|qr\.png)$/.test(path)
  );
}

export function requestIdHeader(req: IncomingMessage): string {
  const id = req.headers["x-request-id"];
  return typeof id === "string" ? id : "";
}

/** The envelope for `error` onto the response, with the request's id. */
export function sendApiError(req: IncomingMessage, res: ServerResponse, error: ApiError, headers: Record<string, string> = {}): void {
  sendError(res, req.method, error, requestIdHeader(req), headers);
}

function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  title: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem"><h1>${title}</h1><p>${text}</p><p><a href="/">Home</a></p></body></html>
`;
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": requestIdHeader(req),
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** For a path that cannot name anything here (malformed percent-encoding, control characters). */
export function sendNotFound(req: IncomingMessage, res: ServerResponse, path: string): void {
  if (isApiPath(path)) {
    sendApiError(req, res, new ApiError("not_found", "No such resource: the path is not valid percent-encoded UTF-8 text."));
  } else {
    sendPage(req, res, 404, "Page not found", "There is no page at this address.");
  }
}

/** Methods the pages and public routes answer (Next routes these; anything else is refused here). */
const PAGE_METHODS = "GET, HEAD, POST, OPTIONS";

/** For a method Next cannot route, outside /v1 (where the route itself refuses it with its own Allow). */
export function sendMethodNotAllowed(req: IncomingMessage, res: ServerResponse, path: string): void {
  const message = `${req.method} is not allowed here; allowed: ${PAGE_METHODS}.`;
  if (isApiPath(path)) sendApiError(req, res, new ApiError("method_not_allowed", message), { Allow: PAGE_METHODS });
  else sendPage(req, res, 405, "Method not allowed", message, { Allow: PAGE_METHODS });
}

/** Paths a worker-only process (CIS_BACKGROUND=only) still answers. */
export function isHealthPath(path: string): boolean {
  return path === "/healthz" || path === "/livez";
}

/** For a request to a worker-only process: it runs background work and serves nothing but its health. */
export function sendWorkerOnly(req: IncomingMessage, res: ServerResponse, path: string): void {
  const message = "This process runs background work only (CIS_BACKGROUND=only); send requests to a web process.";
  if (isApiPath(path)) sendApiError(req, res, new ApiError("service_unavailable", message));
  else sendPage(req, res, 503, "Service unavailable", message);
}

/** For a request that failed in a way nothing else answered. The request id is what support asks for. */
export function sendServerError(req: IncomingMessage, res: ServerResponse, path: string): void {
  const requestId = requestIdHeader(req);
  if (isApiPath(path)) sendApiError(req, res, internalError(requestId));
  else
    sendPage(
      req,
      res,
      500,
      "Something went wrong",
      `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
    );
}

/**
 * A request the HTTP parser refused (Node's `clientError`): an unknown method token, malformed or
 * oversized headers. No handler ran, so the envelope is written to the socket by hand, then the
 * connection is closed (the parser cannot go on after an error). A reset or timed-out socket gets
 * nothing: nobody is listening.
 */
export function answerUnparsableRequest(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET" || error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.destroy();
    return;
  }
  const requestId = requestIdFrom(null);
  const apiError =
    error.code === "HPE_INVALID_METHOD"
      ? new ApiError("method_not_allowed", `That method is not allowed; allowed: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.`, {
          headers: { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
        })
      : error.code === "HPE_HEADER_OVERFLOW"
        ? new ApiError("bad_request", "The request's headers are too large.")
        : new ApiError("bad_request", "The request is not valid HTTP.");
  log.info("request_unparsable", { requestId, errorCode: error.code ?? "unknown", status: apiError.status });
  endWithEnvelope(socket, apiError, requestId);
}

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout" };

/** The envelope written onto the socket by hand, for a request no response object can answer; then the connection ends. */
export function endWithEnvelope(socket: Duplex, apiError: ApiError, requestId: string): void {
  const envelope = errorEnvelope(apiError, requestId, { Connection: "close" });
  const head = Object.entries({ ...envelope.headers, "Content-Length": String(Buffer.byteLength(envelope.body)) })
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n");
  socket.end(`HTTP/1.1 ${envelope.status} ${STATUS_TEXT[envelope.status] ?? "Error"}\r\n${head}\r\n\r\n${envelope.body}`);
}

/** A server action sent from another site (lib/http-server/server-action-origin.ts). */
export function sendCrossOriginRefused(req: IncomingMessage, res: ServerResponse, path: string): void {
  const message = "This form was sent from another site; it is accepted only from this site's own pages.";
  if (isApiPath(path)) sendApiError(req, res, new ApiError("forbidden", message));
  else sendPage(req, res, 403, "Forbidden", message);
}
