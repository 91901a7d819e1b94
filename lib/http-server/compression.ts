// Content coding of the answers server.ts writes itself: the `/v1` answers and the public faces kept
// in the process's cache. Next compresses what it answers (gzip, its `compress` default); these answers
// leave before Next, so they are compressed here, as a browser or an API client over a real network
// expects: a wallet page is 44 KB of HTML and 10–11 KB compressed.
//
// Brotli when the client accepts it (smaller, and at its fastest setting cheaper than gzip's), else
// gzip; the client's weights decide (`negotiator`, as Express's `compression` middleware does).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import Negotiator from "negotiator";

export type ContentCoding = "br" | "gzip";

/** Our order at equal weights: brotli first. `identity` is listed so that a client's weights can prefer it. */
const CODINGS = ["br", "gzip", "identity"] as const;

/**
 * Answers smaller than this leave as they are: compressing them saves less than it costs (the
 * `compression` middleware's threshold, which Next uses).
 */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * How hard to compress. `answer`: for each response (a page carries its own nonce), the fastest
 * settings, 0.1–0.2 ms for a wallet page. `kept`: once for a document kept and answered many times.
 */
export type Effort = "answer" | "kept";

// negotiator 1.x takes `preferred` (our order at equal weights); its types (0.6) do not know it yet.
type EncodingNegotiator = { encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined };

/** The coding to answer `req` with, or null for the body as it is (no header, only identity, or nothing we make). */
export function preferredCoding(req: IncomingMessage): ContentCoding | null {
  const header = req.headers["accept-encoding"];
  if (header === undefined || header === "") return null;
  const chosen = (new Negotiator({ headers: { "accept-encoding": header } }) as unknown as EncodingNegotiator).encoding(CODINGS, {
    preferred: CODINGS,
  });
  return chosen === "br" || chosen === "gzip" ? chosen : null;
}

/** Media types worth compressing: text of any kind, JSON (and JSON-LD), XML, SVG, JavaScript. */
export function isCompressibleType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    /^application\/(?:[\w.+-]+\+)?(?:json|xml)$/.test(type) ||
    type === "application/javascript" ||
    type === "image/svg+xml"
  );
}

export function compressBody(body: Buffer, coding: ContentCoding, effort: Effort): Buffer {
  if (coding === "gzip") return gzipSync(body, { level: effort === "answer" ? 1 : 6 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === "answer" ? 1 : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * Whether an answer with these headers may be compressed at all: large enough (`minBytes`: an answer
 * compressed once and kept is worth it smaller), of a compressible type,
 * not coded already, and not marked `no-transform`. Such an answer varies with Accept-Encoding whether
 * or not this client gets it compressed, so caches must key it by that header.
 */
export function mayCompress(status: number, headers: OutgoingHttpHeaders, bodyLength: number, minBytes = MIN_COMPRESSED_BYTES): boolean {
  if (status === 204 || status === 304 || status < 200 || bodyLength < minBytes) return false;
  if (headers["content-encoding"] !== undefined) return false;
  if (/\bno-transform\b/i.test(String(headers["cache-control"] ?? ""))) return false;
  return isCompressibleType(headers["content-type"] === undefined ? undefined : String(headers["content-type"]));
}

/** Adds `Accept-Encoding` to the response's Vary header (once). */
export function varyOnAcceptEncoding(res: ServerResponse): void {
  const current = res.getHeader("vary");
  const values = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (values.some((v) => v === "*" || v.toLowerCase() === "accept-encoding")) return;
  res.setHeader("Vary", [...values, "Accept-Encoding"].join(", "));
}

/**
 * Ends `res` with `body`, compressed when the request and the answer allow it, with the length of what
 * is sent. A HEAD answer carries the headers the GET would (its coding and length), without the body.
 */
export function endWithBody(req: IncomingMessage, res: ServerResponse, body: Buffer, effort: Effort = "answer"): void {
  if (!mayCompress(res.statusCode, res.getHeaders(), body.length)) return endCoded(req, res, body, null);
  varyOnAcceptEncoding(res);
  const coding = preferredCoding(req);
  endCoded(req, res, coding === null ? body : compressBody(body, coding, effort), coding);
}

/**
 * Ends `res` with `bytes` already in `coding` (null: as they are), with their length; for HEAD, the
 * headers alone. The caller has settled Vary.
 */
export function endCoded(req: IncomingMessage, res: ServerResponse, bytes: Buffer, coding: ContentCoding | null): void {
  if (coding !== null) res.setHeader("Content-Encoding", coding);
  res.setHeader("Content-Length", bytes.length);
  res.end(req.method === "HEAD" ? undefined : bytes);
}
