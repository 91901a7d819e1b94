// Helpers for the credential search specs (POST /v1/credentials/search; docs/api.md, Search): requests
// that wait out a 429, page walks, and the expected order of a sort, computed from API objects only.
import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { expectStatus } from "./api-helpers";
import type { Credential } from "./credentials";

export const SEARCH = "/v1/credentials/search";

export type SearchPage = { data: Credential[]; pagination: { prev: string | null; next: string | null } };
export type SortProperty = "id" | "createdAt" | "updatedAt" | "issueDate" | "expiryDate";
export type Sort = { property: SortProperty; order: "asc" | "desc" };
export const SORT_PROPERTIES: SortProperty[] = ["id", "createdAt", "updatedAt", "issueDate", "expiryDate"];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request that waits and repeats while the token is over its rate limit (429 with Retry-After). */
export async function withRateLimit(send: () => Promise<APIResponse>): Promise<APIResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status() !== 429 || attempt >= 20) return res;
    const wait = Number(res.headers()["retry-after"] ?? "1");
    await sleep(Math.max(200, Math.min(5, Number.isFinite(wait) ? wait : 1) * 1000));
  }
}

/** POST /v1/credentials/search with `body` as JSON (anything, for the bad-input cases). */
export async function postSearch(api: APIRequestContext, body: unknown): Promise<APIResponse> {
  return withRateLimit(() => api.post(SEARCH, { data: body as Record<string, unknown> }));
}

/** One page: 200, `{data, pagination}` and nothing else. */
export async function searchPage(api: APIRequestContext, body: Record<string, unknown>): Promise<SearchPage> {
  const res = await postSearch(api, body);
  const text = await res.text();
  expect(res.status(), `search ${JSON.stringify(body).slice(0, 600)} → ${text.slice(0, 800)}`).toBe(200);
  const page = JSON.parse(text) as SearchPage;
  expect(Object.keys(page).sort(), text.slice(0, 300)).toEqual(["data", "pagination"]);
  expect(Array.isArray(page.data)).toBe(true);
  expect(Object.keys(page.pagination).sort()).toEqual(["next", "prev"]);
  for (const c of [page.pagination.prev, page.pagination.next]) expect(c === null || (typeof c === "string" && c.length > 0)).toBe(true);
  return page;
}

export type Walk = { pages: SearchPage[]; ids: string[]; items: Credential[] };

/**
 * Walks `next` from the first page to the last. `body` is the first request (filter, sort, limit);
 * later requests send the cursor with `repeat` (default: the same filter and sort) and `limit`.
 */
export async function walkForward(
  api: APIRequestContext,
  body: { filter?: unknown; sort?: unknown; limit?: number },
  options: { repeat?: "all" | "none"; maxPages?: number; between?: (page: SearchPage, index: number) => Promise<void> } = {},
): Promise<Walk> {
  const pages: SearchPage[] = [];
  let page = await searchPage(api, body);
  pages.push(page);
  const max = options.maxPages ?? 500;
  while (page.pagination.next) {
    if (options.between) await options.between(page, pages.length - 1);
    const next: Record<string, unknown> = { cursor: page.pagination.next };
    if (body.limit !== undefined) next.limit = body.limit;
    if ((options.repeat ?? "all") === "all") {
      if (body.filter !== undefined) next.filter = body.filter;
      if (body.sort !== undefined) next.sort = body.sort;
    }
    page = await searchPage(api, next);
    pages.push(page);
    if (pages.length > max) throw new Error(`search ${JSON.stringify(body)}: more than ${max} pages`);
  }
  const items = pages.flatMap((p) => p.data);
  return { pages, items, ids: items.map((c) => c.id) };
}

/** All matching ids, in the order search returns them (limit 100 unless given). */
export async function searchIds(api: APIRequestContext, filter: unknown, extra: { sort?: Sort; limit?: number } = {}): Promise<string[]> {
  return (await walkForward(api, { filter, limit: extra.limit ?? 100, ...(extra.sort ? { sort: extra.sort } : {}) })).ids;
}

/** The contract's order: by the sort value (nulls last in either order), ties by id in the same direction. */
export function sortCredentials<T extends Pick<Credential, SortProperty>>(
  items: T[],
  sort: Sort = { property: "createdAt", order: "desc" },
): T[] {
  const dir = sort.order === "asc" ? 1 : -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const key = (c: T): string | null =>
    sort.property === "createdAt" || sort.property === "updatedAt" ? instantKey(c[sort.property]) : c[sort.property];
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null && kb !== null) return 1;
    if (kb === null && ka !== null) return -1;
    if (ka !== null && kb !== null && ka !== kb) return dir * cmp(ka, kb);
    return dir * cmp(a.id, b.id);
  });
}

// ---- instants ------------------------------------------------------------------------------------

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Nanoseconds since the epoch of an ISO 8601 date-time with a zone (the comparison the contract asks for). */
export function instantNs(iso: string): bigint {
  const m = ISO.exec(iso);
  if (!m) throw new Error(`not an ISO date-time with zone: ${iso}`);
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  let offsetMin = 0;
  if (zone !== "Z") offsetMin = (zone!.startsWith("-") ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6)));
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  return BigInt(ms) * 1_000_000n + BigInt(frac.padEnd(9, "0"));
}

/** A sortable string for an instant (fixed width, so string order is time order for our years). */
export function instantKey(iso: string): string {
  return instantNs(iso).toString().padStart(24, "0");
}

/**
 * The instant `iso` plus `deltaMicros` microseconds, written with `offset` ("Z", "+02:00", "-05:30",
 * "+00:00") and a fraction of `digits` digits (0, 3 or 6; 6 is what Python's isoformat writes).
 */
export function formatInstant(iso: string, options: { deltaMicros?: number; offset?: string; digits?: 0 | 3 | 6 } = {}): string {
  const ns = instantNs(iso) + BigInt(options.deltaMicros ?? 0) * 1000n;
  const digits = options.digits ?? 6;
  const offset = options.offset ?? "Z";
  const offsetMin = offset === "Z" ? 0 : (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const localNs = ns + BigInt(offsetMin) * 60_000_000_000n;
  const msTotal = localNs / 1_000_000n - (localNs % 1_000_000n < 0n ? 1n : 0n);
  const subMs = localNs - msTotal * 1_000_000n; // 0..999999 ns
  const base = new Date(Number(msTotal)).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const fraction = base.slice(20, 23) + (subMs / 1000n).toString().padStart(3, "0") + (subMs % 1000n).toString().padStart(3, "0");
  if (digits === 0 && fraction.replace(/0/g, "") !== "") throw new Error(`${iso} + ${options.deltaMicros}µs has a fraction`);
  if (digits === 3 && fraction.slice(3).replace(/0/g, "") !== "") throw new Error(`${iso} + ${options.deltaMicros}µs is finer than ms`);
  return `${base.slice(0, 19)}${digits ? `.${fraction.slice(0, digits)}` : ""}${offset}`;
}

/** Creates with expectStatus after waiting out 429s. */
export async function postJson(
  api: APIRequestContext,
  path: string,
  data: Record<string, unknown> | undefined,
  status: number,
): Promise<any> {
  return expectStatus(await withRateLimit(() => api.post(path, data === undefined ? {} : { data })), status);
}
