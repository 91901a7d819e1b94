// GET/HEAD /previews/<digest>.png|.pdf — public, immutable, digest-versioned preview files.
// /previews/<digest>.png?w=480|800|1200: the same PNG at a smaller width (the wallet's srcset), cached
// and immutable like the full size; any other width, or a width on a PDF, is a 400 in the envelope.
// Served by the app's Node server directly (server.ts), not through a Next route handler: Next drops
// Content-Length from route handler responses, and a cached hit should cost a file read, no more.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../core/errors";
import { internalError } from "../api/envelope";
import { requestIdHeader, sendApiError } from "./answers";
import { errorSummary, log } from "../log";
import { previewAccess } from "../wallet/privacy";
import { walletTokenFromHeaders } from "../wallet/session";
import { attachmentDisposition, safeDownloadName } from "../previews/download-name";
import {
  PREVIEW_PNG_WIDTHS,
  PreviewNotFound,
  PreviewUnrenderable,
  isPreviewPngWidth,
  previewBytes,
  type PreviewFormat,
  type PreviewPngWidth,
} from "../previews/service";

const PATH = /^\/previews\/([0-9a-f]{40})\.(png|pdf)$/;

const NO_SUCH_PREVIEW = () => new ApiError("not_found", "No such preview.");

/** Answers the request when it is for /previews/…; returns false to let Next handle anything else. */
export async function servePreview(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (!url.pathname.startsWith("/previews/")) return false;
  const match = PATH.exec(url.pathname);
  if (!match) {
    sendApiError(req, res, NO_SUCH_PREVIEW());
    return true;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendApiError(req, res, new ApiError("method_not_allowed", `${req.method} is not allowed here; allowed: GET, HEAD.`), {
      Allow: "GET, HEAD",
    });
    return true;
  }
  const [, digest, format] = match as unknown as [string, string, PreviewFormat];
  const width = requestedWidth(url, format);
  if (width instanceof ApiError) {
    sendApiError(req, res, width);
    return true;
  }
  const etag = `"${digest}${width ? `.w${width}` : ""}.${format}"`;
  const headers: Record<string, string | number> = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  try {
    // A private credential's previews are its signed-in recipient's only (lib/wallet/privacy.ts), and
    // then never stored by a shared cache.
    const access = await previewAccess(digest, walletTokenFromHeaders(fetchHeaders(req)));
    if (access === "hidden") {
      sendApiError(req, res, NO_SUCH_PREVIEW());
      return true;
    }
    if (access === "recipient") headers["Cache-Control"] = "private, no-store";
    // A 304 still requires the version to exist: a deleted credential's previews are gone.
    const { bytes, contentType } = await previewBytes(digest, format, width);
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
      // The name comes from the link; its extension is the served format's, whatever the link says.
      ...(download ? { "Content-Disposition": attachmentDisposition(safeDownloadName(download, format)) } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : bytes);
  } catch (error) {
    if (error instanceof PreviewNotFound) sendApiError(req, res, NO_SUCH_PREVIEW());
    else if (error instanceof PreviewUnrenderable) sendApiError(req, res, new ApiError("unsupported_text", error.message));
    else {
      log.error("preview_failed", { requestId: requestIdHeader(req), digest, format, ...errorSummary(error) });
      sendApiError(req, res, internalError(requestIdHeader(req)));
    }
  }
  return true;
}

/** `?w=`: absent (the full size), one of the PNG widths, or a clear error. */
function requestedWidth(url: URL, format: PreviewFormat): PreviewPngWidth | undefined | ApiError {
  const raw = url.searchParams.get("w");
  if (raw === null) return undefined;
  const allowed = PREVIEW_PNG_WIDTHS.join(", ");
  const invalid = (message: string) => new ApiError("validation_error", message, { details: [{ path: "w", message }] });
  if (format !== "png") return invalid("Only PNG previews come in other widths; remove w.");
  const width = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!isPreviewPngWidth(width)) return invalid(`w must be one of ${allowed} (pixels); without w the preview is 1600 pixels wide.`);
  return width;
}

/** The request's headers as a fetch Headers (the wallet cookie is read for the scheme server.ts recorded). */
function fetchHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}
