// A JSON document that is the same bytes for as long as its ETag holds (signed credentials, status
// lists), answered with that ETag, and as 304 Not Modified to a client that already has it.

/** Whether an If-None-Match header names `etag` (or is `*`); weak validators compare as strong ones here. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

export function jsonDocumentResponse(request: Request, document: { json: string; etag: string }, cacheControl: string): Response {
  const headers = { ETag: document.etag, "Cache-Control": cacheControl, Vary: "Accept-Encoding" };
  if (matches(request.headers.get("if-none-match"), document.etag)) return new Response(null, { status: 304, headers });
  return new Response(document.json, { status: 200, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
}
