// GET/HEAD /previews/<digest>.png|.pdf — public, immutable, digest-versioned preview files.
// Served by the app's Node server directly (server.ts), not through a Next route handler: Next drops
// Content-Length from route handler responses, and a cached hit should cost a file read, no more.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorSummary, log } from "../log";
import { PreviewNotFound, PreviewUnrenderable, previewBytes, type PreviewFormat } from "./service";

const PATH = /^\/previews\/([0-9a-f]{40})\.(png|pdf)$/;

/** `attachment` with the name a person should get (an ASCII fallback plus the exact UTF-8 name). */
export function attachmentDisposition(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f"\\/]+/g, " ").trim().slice(0, 200) || "credential";
  const ascii = clean.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

function problem(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, string> = {}) {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store", ...extra });
  res.end(body);
}

/** Answers the request when it is for /previews/…; returns false to let Next handle anything else. */
export async function servePreview(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (!url.pathname.startsWith("/previews/")) return false;
  const match = PATH.exec(url.pathname);
  if (!match) {
    problem(res, 404, "not_found", "No such preview.");
    return true;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    problem(res, 405, "method_not_allowed", `${req.method} is not allowed here; allowed: GET, HEAD.`, { Allow: "GET, HEAD" });
    return true;
  }
  const [, digest, format] = match as unknown as [string, string, PreviewFormat];
  const etag = `"${digest}.${format}"`;
  const headers: Record<string, string | number> = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  try {
    // A 304 still requires the version to exist: a deleted credential's previews are gone.
    const { bytes, contentType } = await previewBytes(digest, format);
    const ifNoneMatch = req.headers["if-none-match"];
    if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    // ?download=<file name>: the wallet's download buttons. The `download` attribute alone does not
    // work when the wallet is served from another origin than the previews.
    const download = url.searchParams.get("download");
    res.writeHead(200, {
      ...headers,
      "Content-Type": contentType,
      "Content-Length": bytes.byteLength,
      "X-Content-Type-Options": "nosniff",
      ...(download ? { "Content-Disposition": attachmentDisposition(download) } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : bytes);
  } catch (error) {
    if (error instanceof PreviewNotFound) problem(res, 404, "not_found", "No such preview.");
    else if (error instanceof PreviewUnrenderable) problem(res, 422, "unsupported_text", error.message);
    else {
      log.error("preview_failed", { digest, format, ...errorSummary(error) });
      problem(res, 500, "internal_server_error", "The preview could not be rendered.");
    }
  }
  return true;
}
