// The path of a request as the client sent it, before anything decodes it.

/** The request target's path, still percent-encoded; absolute-form targets (`GET http://host/p`) too.
 *  null: a target that is no URL at all (`GET http://[::1:x/`), which names nothing here either. */
export function rawPath(target: string | undefined): string | null {
  const url = target ?? "/";
  const end = url.search(/[?#]/);
  const beforeQuery = end === -1 ? url : url.slice(0, end);
  try {
    // Parsed either way, so that what Next and lib/previews parse later cannot fail on it.
    const parsed = new URL(url, "http://localhost");
    return beforeQuery.startsWith("/") ? beforeQuery : parsed.pathname;
  } catch {
    return null;
  }
}

/**
 * A path that does not decode to UTF-8 (`%ff`, a lone `%`, `%zz`) names nothing here; Next would fail on
 * it with a bare 500, so the server answers it first. Nor does one that decodes to control characters:
 * no id, slug or page name has any, and a NUL byte (`%00`) would reach PostgreSQL, which refuses it
 * with an error, in every query made with the path's parameters.
 */
export function pathNamesNothing(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return /[\u0000-\u001f\u007f]/.test(decoded);
}
