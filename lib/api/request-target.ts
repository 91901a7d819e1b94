// What the client asked for, exactly as it asked. Next rebuilds a request's query from a plain object
// before route handlers see it (a `__proto__` parameter is lost on the way, so it could not be refused
// like any other unknown one), and routes only the methods it knows (TRACE, PROPFIND and the like fail
// inside Next with a bare 500 or 400). The app's server (server.ts) stamps the raw query, and turns an
// unroutable method on /v1 into OPTIONS carrying the original, so the route itself answers 405 with
// its own Allow. Both headers are overwritten on every request: a client cannot set them.

export const RAW_QUERY_HEADER = "x-cis-raw-query";
export const ORIGINAL_METHOD_HEADER = "x-cis-original-method";
/** The request's path as server.ts read it, for the root layout (app/document-locale.ts); a client's own is replaced. */
export const REQUEST_PATH_HEADER = "x-cis-request-path";

/** The methods Next routes to handlers; any other reaches a route as OPTIONS with ORIGINAL_METHOD_HEADER. */
export const ROUTABLE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The query string of `target` (a request's raw URL), without the `?`. */
export function rawQueryOf(target: string | undefined): string {
  const url = target ?? "";
  const start = url.indexOf("?");
  if (start === -1) return "";
  const end = url.indexOf("#", start);
  return url.slice(start + 1, end === -1 ? undefined : end);
}

/** The query as the client sent it (falling back to the URL Next gives, outside our server). */
export function searchParamsOf(request: Request): URLSearchParams {
  const raw = request.headers.get(RAW_QUERY_HEADER);
  return raw !== null ? new URLSearchParams(raw) : new URL(request.url).searchParams;
}

/** The method the client sent, when server.ts had to route it as OPTIONS; null otherwise. */
export function unroutableMethodOf(request: Request): string | null {
  return request.method === "OPTIONS" ? request.headers.get(ORIGINAL_METHOD_HEADER) : null;
}
