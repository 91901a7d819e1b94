// Answers the app's server (server.ts) and the preview files (lib/previews/http.ts) give themselves,
// without Next: the contract's error envelope for API-ish paths, a small HTML page for the others.
// Every one carries the request's id (server.ts settles it before anything answers).
import type { IncomingMessage, ServerResponse } from "node:http";

/** Paths whose clients are programs: they get the JSON error envelope, not an HTML page. */
export function isApiPath(path: string): boolean {
  return /^\/(?:v1|api|organizations|previews)(?:\/|$)/.test(path);
}

export function requestIdHeader(req: IncomingMessage): string {
  const id = req.headers["x-request-id"];
  return typeof id === "string" ? id : "";
}

export type ErrorAnswer = { status: number; code: string; message: string; headers?: Record<string, string> };

/** `{"error":{"code","message"}}` with X-Request-Id, never cached. */
export function sendErrorEnvelope(req: IncomingMessage, res: ServerResponse, answer: ErrorAnswer): void {
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
  res.writeHead(answer.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": requestIdHeader(req),
    ...answer.headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

function sendPage(req: IncomingMessage, res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem"><h1>${title}</h1><p>${text}</p><p><a href="/">Home</a></p></body></html>
`;
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": requestIdHeader(req),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** For a path that cannot name anything here (malformed percent-encoding, control characters). */
export function sendNotFound(req: IncomingMessage, res: ServerResponse, path: string): void {
  if (isApiPath(path)) {
    sendErrorEnvelope(req, res, { status: 404, code: "not_found", message: "No such resource: the path is not valid percent-encoded UTF-8 text." });
  } else {
    sendPage(req, res, 404, "Page not found", "There is no page at this address.");
  }
}

/** For a request that failed in a way nothing else answered. The request id is what support asks for. */
export function sendServerError(req: IncomingMessage, res: ServerResponse, path: string): void {
  const requestId = requestIdHeader(req);
  if (isApiPath(path)) {
    const message = `Something went wrong on our side. Quote request id ${requestId} if you contact support.`;
    sendErrorEnvelope(req, res, { status: 500, code: "internal_server_error", message });
  } else {
    sendPage(req, res, 500, "Something went wrong", `Something went wrong on our side. Quote request id ${requestId} if you contact support.`);
  }
}
