// Clients that take too long to send a request. A request whose body never arrives (a declared
// Content-Length, then nothing) or whose headers come a byte at a time (slowloris) would otherwise hold
// its connection, and the handler waiting for it, for Node's default five minutes, and then be logged
// as a server error once the client gave up. Node's own limits do the timing (requestTimeout covers
// the headers and the body); this module says what happened: one warning line `client_timeout`, a 408
// when nothing was answered yet, and the connection closed. Whatever the abandoned handler does
// afterwards (its body read fails) is the client's doing, not ours: see requestAbandoned.
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../core/errors";
import { requestIdFrom } from "../api/request-id";
import { log } from "../log";
import { endWithEnvelope, requestIdHeader } from "./answers";

type InFlight = { req: IncomingMessage; res: ServerResponse; path: string };

/** The request each connection is handling now (one at a time: HTTP/1.1 without pipelining). */
const inFlight = new WeakMap<Duplex, InFlight>();
/** Connections dropped for a timeout: their requests' failures are no server errors. */
const dropped = new WeakSet<Duplex>();

/**
 * Node's server options for a whole request (headers and body) to arrive within `timeoutMs`. Node checks
 * its connections for expired requests every connectionsCheckingInterval (30 s by default, which would
 * double a 30 s limit): a quarter of the limit, at most a second.
 */
export function clientTimeoutOptions(
  timeoutMs: number,
): Pick<ServerOptions, "requestTimeout" | "headersTimeout" | "connectionsCheckingInterval"> {
  return {
    requestTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))),
  };
}

/** Remembers which request a connection is handling, until its response is done. */
export function trackRequest(req: IncomingMessage, res: ServerResponse, path: string): void {
  const socket = req.socket;
  inFlight.set(socket, { req, res, path });
  res.once("close", () => {
    if (inFlight.get(socket)?.req === req) inFlight.delete(socket);
  });
}

/**
 * The client left before its request arrived in full: dropped here for a timeout, or its connection
 * closed in the middle of the body. A handler that fails then failed for want of input, not by fault.
 */
export function requestAbandoned(req: IncomingMessage): boolean {
  return dropped.has(req.socket) || (!req.complete && req.socket.destroyed);
}

/** Node's clientError for a request that did not arrive in time: one warning, a 408 if possible, the connection closed. */
export function dropTimedOutRequest(socket: Duplex, timeoutMs: number): void {
  dropped.add(socket);
  const current = inFlight.get(socket);
  const seconds = timeoutMs / 1000;
  const requestId = current ? requestIdHeader(current.req) : requestIdFrom(null);
  const waitingFor = current ? "body" : "headers";
  log.warn("client_timeout", { requestId, ...(current ? { method: current.req.method, path: current.path } : {}), waitingFor, seconds });
  if (!socket.writable || current?.res.headersSent) {
    socket.destroy();
    return;
  }
  endWithEnvelope(socket, new ApiError("request_timeout", `The request's ${waitingFor} did not arrive within ${seconds} s.`), requestId);
  // Destroyed once the 408 is written, so that a handler still waiting for the body learns of it.
  socket.once("finish", () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}
