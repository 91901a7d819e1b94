// Query parameters a public page ignores: the email's recipient mark (read in the browser, which then
// removes it from the address bar) and what social networks and campaigns append. A link carrying them
// is the same page, so the cache of rendered pages shares one answer among them; for that to be true a
// page must never write them into what it renders (its language links drop them: a guest must not be
// handed the recipient's mark or someone else's click id).
const IGNORED_PAGE_PARAMETERS = /^(?:recipient|utm_[a-z]+|fbclid|gclid|trk|li_fat_id|ref)$/;

export function isIgnoredPageParameter(name: string): boolean {
  return IGNORED_PAGE_PARAMETERS.test(name);
}

/** `query` (a raw query string, without "?") without the parameters pages ignore. */
export function withoutIgnoredParameters(query: string): URLSearchParams {
  const params = new URLSearchParams(query);
  for (const name of [...new Set(params.keys())]) if (isIgnoredPageParameter(name)) params.delete(name);
  return params;
}
