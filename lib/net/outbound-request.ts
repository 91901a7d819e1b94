// The one way the service calls a URL a user gave it (webhook endpoints, domain checks). It refuses
// non-public addresses (unless the WEBHOOK_ALLOW_PRIVATE test switch is on) at the moment of
// connecting, on the address actually connected to, so a DNS answer that changes between a check and
// the request (DNS rebinding) cannot slip through. It never follows redirects, gives up after a
// deadline, and reads at most a bounded number of response bytes.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { config } from "../config";
import { isIpLiteral, isLoopbackHost, nonPublicAddressReason, unbracket } from "./address-policy";

export type OutboundFailureKind =
  /** The URL is not one we call: scheme, credentials in it, no host. */
  | "bad_url"
  /** The host resolves to a private, link-local, loopback or otherwise non-public address. */
  | "refused_address"
  | "dns"
  | "timeout"
  | "network"
  | "response_too_large";

/** A failure with a message safe to show the user who configured the URL (no stack, no internals). */
export class OutboundRequestError extends Error {
  constructor(
    readonly kind: OutboundFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "OutboundRequestError";
  }
}

export type OutboundResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  durationMs: number;
};

export type OutboundRequest = {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole-request deadline: connect, send, and read the answer (a receiver that drips its answer is cut off at it too). */
  timeoutMs: number;
  /** Longest answer read; a longer one fails as `response_too_large`. */
  maxResponseBytes: number;
};

function allowPrivate(): boolean {
  return config().allowPrivateNetworks;
}

/**
 * The URL as we will call it, or an `OutboundRequestError("bad_url")` saying why not: `https`, or
 * `http` for loopback hosts only (a local receiver in development); no user name or password (they
 * would be shown wherever the URL is).
 */
export function parseOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRequestError("bad_url", "must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new OutboundRequestError("bad_url", "must be an https URL (http only for loopback hosts)");
  }
  if (url.username || url.password) throw new OutboundRequestError("bad_url", "must not contain a user name or password");
  if (!url.hostname) throw new OutboundRequestError("bad_url", "must name a host");
  return url;
}

function refusal(host: string, address: string, reason: string): OutboundRequestError {
  const shown = host === address ? address : `${host} (${address})`;
  // ipaddr.js names ranges in camelCase ("linkLocal"); the message is read by people.
  const words = reason.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  return new OutboundRequestError("refused_address", `${shown} is a ${words} address, not a public one`);
}

/** Every address `host` resolves to; all must be public for the host to be called. */
async function resolveAll(host: string): Promise<{ address: string; family: number }[]> {
  try {
    return await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new OutboundRequestError("dns", `${host} could not be resolved`);
  }
}

function firstRefused(host: string, addresses: readonly { address: string }[]): OutboundRequestError | null {
  if (allowPrivate()) return null;
  for (const { address } of addresses) {
    const reason = nonPublicAddressReason(address);
    if (reason) return refusal(host, address, reason);
  }
  return null;
}

/**
 * Checks a URL the way a request to it would be checked, without sending anything: for refusing a
 * webhook endpoint or a domain when it is saved. The request itself checks again when it connects.
 */
export async function assertCallableUrl(raw: string): Promise<URL> {
  const url = parseOutboundUrl(raw);
  const host = unbracket(url.hostname);
  const addresses = isIpLiteral(host) ? [{ address: host, family: 0 }] : await resolveAll(host);
  const refused = firstRefused(host, addresses);
  if (refused) throw refused;
  return url;
}

/** The resolver the socket uses: resolves, refuses if any answer is non-public, connects to the first. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAll(hostname).then(
    (addresses) => {
      const refused = firstRefused(hostname, addresses);
      if (refused) return callback(refused, "", 0);
      const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(new OutboundRequestError("dns", `${hostname} has no usable address`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof wanted) => void)(null, wanted);
      callback(null, wanted[0]!.address, wanted[0]!.family);
    },
    (error: unknown) => callback(error as NodeJS.ErrnoException, "", 0),
  );
};

function isResetError(code: string): boolean {
  return code === "ECONNRESET" || code === "EPIPE";
}

// Keep-alive pools: a busy endpoint gets its deliveries over reused connections. A pooled socket was
// checked when it connected, so reusing it is safe. As many sockets per host as the webhook worker has
// slots: requests queued in the agent would wait behind a hanging receiver on the same host, and the
// worker already bounds how many go to one endpoint (lib/webhooks/worker.ts).
const MAX_SOCKETS_PER_HOST = 128;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST, lookup: checkedLookup }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST, lookup: checkedLookup }),
};

/** Turns a socket-level error into a failure a user can act on, without internals. */
function describeNetworkError(error: unknown, host: string): OutboundRequestError {
  if (error instanceof OutboundRequestError) return error;
  const code = (error as { code?: string } | null)?.code ?? "";
  if (code === "ECONNREFUSED") return new OutboundRequestError("network", `${host} refused the connection`);
  if (code === "ECONNRESET" || code === "EPIPE") return new OutboundRequestError("network", `${host} closed the connection`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new OutboundRequestError("dns", `${host} could not be resolved`);
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL"))
    return new OutboundRequestError("network", `TLS with ${host} failed (${code})`);
  return new OutboundRequestError("network", code ? `request to ${host} failed (${code})` : `request to ${host} failed`);
}

/** Sends one request under the rules above. Never follows a redirect: a 3xx is returned as it is. */
export async function outboundRequest(raw: string, request: OutboundRequest): Promise<OutboundResponse> {
  const url = parseOutboundUrl(raw);
  const host = unbracket(url.hostname);
  // A literal address is connected to without a lookup, so it is checked here instead.
  if (isIpLiteral(host)) {
    const refused = firstRefused(host, [{ address: host }]);
    if (refused) throw refused;
  }
  const started = performance.now();
  try {
    return await sendOnce(url, host, request, started);
  } catch (error) {
    // A kept-alive socket the server closed just as we reused it (its idle timeout and our request
    // crossed): the request never reached the server, so it is sent once more on a new connection, as
    // Node's documentation advises. Seen as "closed the connection" on a domain check under load.
    if (!(error instanceof StaleSocketError)) throw error;
    return sendOnce(url, host, request, started, { freshSocket: true });
  }
}

/** A reused keep-alive socket that failed before any answer came: safe to send again once. */
class StaleSocketError extends Error {
  constructor(readonly failure: OutboundRequestError) {
    super(failure.message);
  }
}

function sendOnce(
  url: URL,
  host: string,
  request: OutboundRequest,
  started: number,
  options: { freshSocket?: boolean } = {},
): Promise<OutboundResponse> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (error: OutboundRequestError | null, response?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error && !answered && !options.freshSocket && req.reusedSocket && error.kind === "network" && isResetError(lastErrorCode)) {
        reject(new StaleSocketError(error));
      } else if (error) reject(error);
      else resolve(response!);
    };
    let lastErrorCode = "";
    const req = client.request(url, {
      method: request.method ?? "POST",
      headers: { "user-agent": "credential-service", ...request.headers },
      // The retry of a stale socket takes a connection of its own (the pool may hold more stale ones);
      // its address is checked at connect all the same.
      ...(options.freshSocket ? { agent: false, lookup: checkedLookup } : { agent: agents[url.protocol as "http:" | "https:"] }),
    });
    // One deadline for the whole attempt, from `started`: a resend on a fresh socket gets only what
    // is left of it, so a receiver cannot hold the caller for longer by cutting a connection late.
    const deadline = setTimeout(
      () => {
        finish(new OutboundRequestError("timeout", `no complete answer from ${host} within ${Math.round(request.timeoutMs / 1000)} s`));
        req.destroy();
      },
      Math.max(0, started + request.timeoutMs - performance.now()),
    );
    req.on("error", (error) => {
      lastErrorCode = (error as { code?: string } | null)?.code ?? "";
      finish(describeNetworkError(error, host));
    });
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxResponseBytes) {
          finish(
            new OutboundRequestError("response_too_large", `the answer from ${host} is larger than ${request.maxResponseBytes} bytes`),
          );
          res.destroy();
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", (error) => finish(describeNetworkError(error, host)));
      res.on("end", () =>
        finish(null, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          durationMs: Math.round(performance.now() - started),
        }),
      );
    });
    req.end(request.body);
  });
}
