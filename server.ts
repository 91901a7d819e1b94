// The app's HTTP server: Next.js's request handler behind a plain Node server, so that route handlers
// learn the client's address and scheme (lib/net/client-connection.ts). Started by scripts/start.ts.
// Before Next sees a request, this server settles its request id, sets the security headers every
// response carries, answers paths Next cannot decode, refuses cross-origin server actions, drops
// clients too slow to send their request, refuses server action arguments nested too deeply, serves
// /previews/* itself, answers /v1 by calling its route handlers without Next's router
// (lib/http-server/api-routes.ts), and answers the public faces (wallet pages, signed documents) from
// its cache of what Next rendered for them (lib/http-server/public-faces.ts).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import next from "next";
import { servePreview } from "./lib/http-server/preview-files";
import { servePublicFace } from "./lib/http-server/public-faces";
import { ApiRouter, serveApiRoute } from "./lib/http-server/api-routes";
import { enableWalCheckpoints } from "./lib/db/wal-checkpointer";
import { allV1Routes } from "./app/v1/openapi.json/endpoints";
import {
  CLIENT_ADDRESS_HEADER,
  CLIENT_FORWARDED_FOR_HEADER,
  CLIENT_FORWARDED_PROTO_HEADER,
  CLIENT_SCHEME_HEADER,
  clientConnection,
} from "./lib/net/client-connection";
import { requestIdFrom } from "./lib/api/request-id";
import { config } from "./lib/config";
import {
  answerUnparsableRequest,
  isHealthPath,
  sendCrossOriginRefused,
  sendMethodNotAllowed,
  sendNotFound,
  sendServerError,
  sendWorkerOnly,
} from "./lib/http-server/answers";
import { clientTimeoutOptions, dropTimedOutRequest, requestAbandoned, trackRequest } from "./lib/http-server/client-timeout";
import { screenServerActionBody } from "./lib/http-server/server-action-body";
import { crossOriginServerAction } from "./lib/http-server/server-action-origin";
import { ORIGINAL_METHOD_HEADER, RAW_QUERY_HEADER, rawQueryOf, REQUEST_PATH_HEADER, ROUTABLE_METHODS } from "./lib/api/request-target";
import { pathNamesNothing, rawPath } from "./lib/http-server/request-path";
import { withPageLanguage } from "./lib/http-server/page-language";
import { newNonce, securityHeaders } from "./lib/http-server/security-headers";
import { closeConnectionIfBodyUnread } from "./lib/http-server/unread-body";
import { errorSummary, log } from "./lib/log";

function stampConnection(req: IncomingMessage) {
  // Overwrite whatever a client sent under these names: only the socket may speak here. Next fills in
  // X-Forwarded-For/-Proto itself before handlers run, so the values the client (or its proxy) sent
  // are kept under our own names first.
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  req.headers[CLIENT_SCHEME_HEADER] = (req.socket as TLSSocket).encrypted ? "https" : "http";
  req.headers[CLIENT_FORWARDED_FOR_HEADER] = joined(req.headers["x-forwarded-for"]);
  req.headers[CLIENT_FORWARDED_PROTO_HEADER] = joined(req.headers["x-forwarded-proto"]);
}

/**
 * What the client asked for, as it asked (lib/api/request-target.ts): the raw query, since Next drops a
 * `__proto__` parameter when it rebuilds the query; and a method Next cannot route, which reaches /v1
 * routes as OPTIONS so that the route answers 405 with its own Allow. False when this server must
 * answer itself (such a method outside /v1).
 */
function stampRequestTarget(req: IncomingMessage, path: string): boolean {
  req.headers[RAW_QUERY_HEADER] = rawQueryOf(req.url);
  req.headers[REQUEST_PATH_HEADER] = path;
  delete req.headers[ORIGINAL_METHOD_HEADER];
  const method = req.method ?? "GET";
  if (ROUTABLE_METHODS.has(method)) return true;
  if (!/^\/v1(?:\/|$)/.test(path)) return false;
  req.headers[ORIGINAL_METHOD_HEADER] = method;
  req.method = "OPTIONS";
  return true;
}

/** One id per request, for everything that answers or logs it: the client's when valid, else a new one. */
function stampRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdFrom(joined(req.headers["x-request-id"]) || null);
  req.headers["x-request-id"] = id;
  res.setHeader("X-Request-Id", id);
  return id;
}

function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

function cameOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  const headers = new Headers();
  for (const name of [CLIENT_ADDRESS_HEADER, CLIENT_SCHEME_HEADER, CLIENT_FORWARDED_FOR_HEADER, CLIENT_FORWARDED_PROTO_HEADER]) {
    headers.set(name, joined(req.headers[name]));
  }
  return clientConnection(headers, trustProxy).scheme === "https";
}

export async function startServer(options: { dev: boolean; host: string; port: number }): Promise<() => Promise<void>> {
  const app = next({
    dev: options.dev,
    hostname: options.host === "0.0.0.0" ? "localhost" : options.host,
    port: options.port,
    dir: process.cwd(),
  });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Also done by instrumentation.ts's register(), which Next may still be running when the first
  // request arrives: a /v1 write answered here may come first, and its SQLite connection must open
  // with checkpoints left to the checkpointer thread.
  enableWalCheckpoints();
  const cfg = config();
  const imageOrigins = [new URL(cfg.publicUrl).origin];
  const backgroundOnly = cfg.background === "only";
  const answerFromCache = cfg.publicFacesCache && !options.dev;
  // /v1 without Next's router (lib/http-server/api-routes.ts); in development Next recompiles edits.
  const apiRouter = options.dev ? null : new ApiRouter(allV1Routes());

  const server = createServer(clientTimeoutOptions(cfg.clientTimeoutMs), (req, res) => {
    stampConnection(req);
    const requestId = stampRequestId(req, res);
    const target = rawPath(req.url);
    const path = target ?? "/";
    closeConnectionIfBodyUnread(req, res);
    trackRequest(req, res, path);

    const nonce = newNonce();
    const https = cameOverHttps(req, cfg.trustProxy);
    const headers = securityHeaders({ path, https, nonce, dev: options.dev, imageOrigins });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // Next takes the nonce for its script tags from the request's own policy header (a client's is
    // overwritten: it must not choose the nonce).
    req.headers["content-security-policy"] = headers["Content-Security-Policy"];

    if (target === null || pathNamesNothing(target)) {
      sendNotFound(req, res, path);
      log.info("request", { requestId, method: req.method, path, status: 404 });
      return;
    }
    if (!stampRequestTarget(req, path)) {
      sendMethodNotAllowed(req, res, path);
      log.info("request", { requestId, method: req.method, path, status: 405 });
      return;
    }
    if (backgroundOnly && !isHealthPath(path)) {
      sendWorkerOnly(req, res, path);
      log.info("request", { requestId, method: req.method, path, status: 503 });
      return;
    }
    const crossOrigin = crossOriginServerAction(req, path);
    if (crossOrigin !== null) {
      sendCrossOriginRefused(req, res, path);
      log.warn("server_action_cross_origin", { requestId, method: req.method, path, origin: crossOrigin.slice(0, 200), status: 403 });
      return;
    }
    const fail = (error: unknown) => {
      if (requestAbandoned(req)) {
        // The client left (or was dropped, and that was logged) before its body arrived: no fault of ours.
        log.info("request_abandoned", { requestId, method: req.method, path, ...errorSummary(error) });
        res.destroy();
        return;
      }
      log.error("request_failed", { requestId, method: req.method, path, ...errorSummary(error) });
      // Half a response cannot be turned into an error: cut it off so the client sees it is incomplete.
      if (res.headersSent) res.destroy();
      else sendServerError(req, res, path);
    };
    servePreview(req, res)
      .then(async (served) => {
        if (served) return;
        if (apiRouter && (await serveApiRoute(apiRouter, req, res, path))) return;
        // In development every request renders afresh, so that an edited page shows at once.
        // A page's language (its Content-Language, Vary and remembered choice) is known only once it
        // renders; a kept page keeps the headers its render announced.
        if (answerFromCache && (await withPageLanguage(res, https, () => servePublicFace(req, res, path, nonce, handle)))) return;
        // A server action's body is read and checked here (server-action-body.ts); Next gets a replay.
        const forNext = await screenServerActionBody(req, res, path);
        if (forNext !== null) await withPageLanguage(res, https, () => handle(forNext, res));
      })
      .catch(fail);
  });
  // Requests the HTTP parser cannot read (an unknown method token, malformed headers) never reach the
  // handler above; they get the envelope too instead of Node's bare 400. Requests that do not arrive
  // within the client timeout come here too (Node's requestTimeout), reported as the client's delay.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") dropTimedOutRequest(socket, cfg.clientTimeoutMs);
    else answerUnparsableRequest(error, socket);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
}
