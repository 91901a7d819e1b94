// The /v1 routes answered by this server itself, before Next's router: the same route definitions and
// handlers as app/v1/**/route.ts (lib/api/endpoint.ts), called without the framework's share of the
// answer. A read's own work is about a tenth of a millisecond of CPU; Next's routing, its request and
// response wrappers and its streamed answer (headers and body in two socket writes) cost several times
// that on every request (docs/benchmarks.md, API reads).
//
// Only what maps onto one route without interpretation is answered here: a path whose segments are
// the route's literal names, or ids of plain characters (letters, digits, `-`, `_`) where the route
// takes a parameter, and a method the route has a handler for. Everything else (a trailing slash Next
// redirects, a percent-encoded id Next decodes, an unknown path for the catch-all's 404) still goes to
// Next, whose routes call the same handlers, so both ways answer alike. In development every request
// goes to Next, so that an edited endpoint is recompiled.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { RouteDefinition } from "../api/endpoint";
import { rawQueryOf } from "../api/request-target";
import { endWithBody } from "./compression";

type Segment = { literal: string } | { param: string };
type CompiledRoute = { route: RouteDefinition; segments: Segment[] };
type Handler = RouteDefinition["handlers"][keyof RouteDefinition["handlers"]];

/** An id as the routes' own links print it; anything else is decoded and matched by Next. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;

function compile(route: RouteDefinition): CompiledRoute {
  const segments = route.path
    .split("/")
    .slice(1)
    .map((part): Segment => {
      const param = /^\{(\w+)\}$/.exec(part);
      return param ? { param: param[1]! } : { literal: part };
    });
  return { route, segments };
}

/**
 * Next's priority between routes that match the same path (so of the same length): at the first
 * segment where they differ, a literal name wins over a parameter (`/v1/credentials/search` before
 * `/v1/credentials/{id}`). Ordered by length first, so that the order is total.
 */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = "literal" in a.segments[i]!;
    const bLiteral = "literal" in b.segments[i]!;
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

export class ApiRouter {
  readonly #routes: CompiledRoute[];

  constructor(routes: RouteDefinition[]) {
    this.#routes = routes.map(compile).sort(bySpecificity);
  }

  /** The route a path names and its parameters, or null: Next is to answer this path. */
  match(path: string): { route: RouteDefinition; params: Record<string, string> } | null {
    const parts = path.split("/").slice(1);
    for (const { route, segments } of this.#routes) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const segment = segments[i]!;
        const part = parts[i]!;
        if ("literal" in segment) matched = segment.literal === part;
        else if (PLAIN_SEGMENT.test(part)) params[segment.param] = part;
        else matched = false;
      }
      if (matched) return { route, params };
    }
    return null;
  }

  /** The handler for this request, or null when Next is to answer it. */
  handlerFor(method: string, path: string): { handler: Handler; params: Record<string, string> } | null {
    const found = this.match(path);
    if (!found) return null;
    const handler = (found.route.handlers as Record<string, Handler | undefined>)[method];
    return handler ? { handler, params: found.params } : null;
  }
}

/** A Node request's headers as a fetch `Headers` (a header sent twice keeps both values). */
export function webHeadersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * The request as the handlers' `Request`: the headers server.ts has stamped (client address, raw query,
 * request id), and the body as a stream for methods that have one, as Next passes it. The handlers read
 * only the URL's path and query, so its origin is a fixed one, as Next's is (its own host and port):
 * never the client's Host header, which need not be one a URL can hold (`Host: a:b`).
 */
export function webRequestOf(req: IncomingMessage, path: string): Request {
  const headers = webHeadersOf(req);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // From the path server.ts read, not req.url: an absolute-form target (`GET http://host/v1/...`) is a URL already.
  const query = rawQueryOf(req.url);
  return new Request(`http://localhost${path}${query ? `?${query}` : ""}`, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  });
}

/**
 * Writes a handler's answer: its headers beside the ones server.ts set (which stand, as they do when
 * Next writes the answer), and its body (a /v1 answer is always a JSON text or nothing) with its
 * length, compressed when the client accepts it (as Next compresses what it answers), so that headers
 * and body leave in one write.
 */
export async function sendWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const body = response.body === null ? null : Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name === "set-cookie" || res.hasHeader(name)) return;
    res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  for (const cookie of cookies) res.appendHeader("Set-Cookie", cookie);
  if (body === null) {
    res.end();
    return;
  }
  endWithBody(req, res, body);
}

/** Answers a /v1 request that `router` maps onto one of its routes; false when Next is to answer it. */
export async function serveApiRoute(router: ApiRouter, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const method = req.method ?? "GET";
  const found = router.handlerFor(method, path);
  if (!found) return false;
  const response = await found.handler(webRequestOf(req, path), { params: Promise.resolve(found.params) });
  await sendWebResponse(req, res, response);
  return true;
}
