// Where to go after signing in: only a path on this site. A sign-in link must not send people to
// another site afterwards (an open redirect), and browsers read more than "//" as "another host":
// "/\evil.example" and "/\t/evil.example" leave the site too. So the path is resolved the way the
// browser will resolve it, and kept only when it stays on the same origin.
const BASE = "https://this-site.invalid";

export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/")) return "/dashboard";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/dashboard";
  }
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : "/dashboard";
}
