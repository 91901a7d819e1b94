// Cross-origin server actions, refused before Next sees them. Next protects server actions from
// cross-site requests by comparing the Origin header with the host, but it refuses a mismatch with a
// 500 and an error-level log line: any web page could then make a signed-in visitor's browser fill our
// logs with false alarms. The same comparison is made here first and answered as what it is: 403, one
// warning line.
import type { IncomingMessage } from "node:http";
import { isApiPath } from "./answers";

/** Next's header naming the server action a fetch from the page runs. */
const ACTION_HEADER = "next-action";

/**
 * What Next would run as a server action: a POST to a page that names an action in its header, or a
 * multipart form POST (a form submitted before the page's scripts loaded). Route handlers (the API
 * paths) never run actions, so their requests are left alone.
 */
export function mayRunServerAction(req: IncomingMessage, path: string): boolean {
  if (req.method !== "POST" || isApiPath(path)) return false;
  const type = req.headers["content-type"] ?? "";
  return req.headers[ACTION_HEADER] !== undefined || type.toLowerCase().startsWith("multipart/form-data");
}

/** The host the request was sent to, as Next reads it: the proxy's first X-Forwarded-Host, else Host. */
function requestedHost(req: IncomingMessage): string | undefined {
  const forwarded = req.headers["x-forwarded-host"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded?.split(",")[0])?.trim();
  return first || req.headers.host;
}

/** The host part of an Origin header; "null" (sandboxed pages, some redirects) and garbage match nothing. */
function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * The Origin of a server action request that comes from another site, or null when the request is no
 * server action, is same-origin, or sends no Origin (then it is no browser's cross-site request, and
 * Next decides).
 */
export function crossOriginServerAction(req: IncomingMessage, path: string): string | null {
  const origin = req.headers.origin;
  if (origin === undefined || !mayRunServerAction(req, path)) return null;
  const host = originHost(origin);
  return host !== null && host === requestedHost(req) ? null : origin;
}
