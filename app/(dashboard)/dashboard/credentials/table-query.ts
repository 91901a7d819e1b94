// The credentials table's address (?status=issued&issuedFrom=2026-01-01&sort=issueDate&order=asc...) as
// a request body of the search API. The page parses that body with the API's own schema
// (SearchCredentialsBody) and runs the API's own service, so the table and the API cannot disagree
// about what a filter or a sort means; this module only spells the form's fields in the filter language.
import type { ErrorDetail } from "@/lib/core/errors";
import type { SortProperty } from "@/lib/search/fields";

export const TABLE_PARAMS = [
  "status",
  "template",
  "name",
  "email",
  "hasEmail",
  "issuedFrom",
  "issuedTo",
  "sort",
  "order",
  "limit",
  "cursor",
] as const;
export type TableParam = (typeof TABLE_PARAMS)[number];
/** The table's parameters that were given, first value only, trimmed, empty ones left out. */
export type TableQuery = Partial<Record<TableParam, string>>;

/**
 * The status filter's extra choice. The table shows "revoked" in place of a revoked credential's
 * status, so the filter agrees: "revoked" is any revoked credential, and another status one that is not.
 */
export const REVOKED = "revoked";

export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
/** Without `sort`/`order` in the address the table shows the search API's default order. */
const DEFAULT_ORDER = "desc";

/** The columns a person can sort by, in table order (the API also sorts by `id`, which has no column). */
export const SORTABLE_COLUMNS: { property: SortProperty; label: string }[] = [
  { property: "issueDate", label: "Issue date" },
  { property: "expiryDate", label: "Expires" },
  { property: "createdAt", label: "Created" },
  { property: "updatedAt", label: "Updated" },
];

/** What each parameter is called on the page, for messages about it. */
export const PARAM_LABELS: Record<TableParam, string> = {
  status: "Status",
  template: "Template",
  name: "Recipient name contains",
  email: "Email contains",
  hasEmail: "Email",
  issuedFrom: "Issued from",
  issuedTo: "Issued to",
  sort: "Sort",
  order: "Sort order",
  limit: "Per page",
  cursor: "Page link",
};

export function readTableQuery(params: Record<string, string | string[] | undefined>): TableQuery {
  const query: TableQuery = {};
  for (const name of TABLE_PARAMS) {
    const raw = params[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) query[name] = value;
  }
  return query;
}

export type TableProblem = { param: TableParam | null; message: string };

export type SearchRequest = {
  /** The JSON body the search API would be sent, cursor included. */
  body: { filter: Record<string, unknown>; sort: { property: string; order: string }; limit: number | string; cursor?: string };
  /** Mistakes in the table's own parameters (those that are not spelled as the API's). */
  problems: TableProblem[];
};

export function searchRequest(query: TableQuery): SearchRequest {
  const problems: TableProblem[] = [];
  const filter: Record<string, unknown> = {};
  if (query.status === REVOKED) filter.revokedAt = { not: null };
  else if (query.status) {
    filter.status = query.status;
    filter.revokedAt = { equals: null };
  }
  if (query.template) filter.groupId = query.template;
  if (query.name) filter["recipient.name"] = { contains: query.name };

  // One field, one operator object: all of its operators must hold.
  const email: Record<string, unknown> = {};
  if (query.email) email.contains = query.email;
  if (query.hasEmail === "yes") email.not = null;
  else if (query.hasEmail === "no") email.equals = null;
  else if (query.hasEmail) problems.push({ param: "hasEmail", message: `must be "yes" or "no", not ${JSON.stringify(query.hasEmail)}` });
  if (Object.keys(email).length > 0) filter["recipient.email"] = email;

  const issueDate: Record<string, unknown> = {};
  if (query.issuedFrom) issueDate.gte = query.issuedFrom;
  if (query.issuedTo) issueDate.lte = query.issuedTo;
  if (Object.keys(issueDate).length > 0) filter.issueDate = issueDate;

  // Unknown properties, orders and limits are passed on as typed: the API's schema names what is wrong.
  const sort = { property: query.sort ?? "createdAt", order: query.order ?? DEFAULT_ORDER };
  const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : query.limit;
  return { body: { filter, sort, limit, ...(query.cursor ? { cursor: query.cursor } : {}) }, problems };
}

/** The table parameter a validation detail of the search body is about (`filter.issueDate.gte` → issuedFrom). */
export function paramOf(path: string): TableParam | null {
  const rules: [RegExp, TableParam][] = [
    [/^filter\.(status|revokedAt)(\.|$)/, "status"],
    [/^filter\.groupId(\.|$)/, "template"],
    [/^filter\.recipient\.name(\.|$)/, "name"],
    [/^filter\.recipient\.email\.contains$/, "email"],
    [/^filter\.recipient\.email(\.|$)/, "hasEmail"],
    [/^filter\.issueDate\.gte$/, "issuedFrom"],
    [/^filter\.issueDate\.lte$/, "issuedTo"],
    [/^sort\.property$/, "sort"],
    [/^sort\.order$/, "order"],
    [/^limit$/, "limit"],
    [/^cursor$/, "cursor"],
  ];
  return rules.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

export function problemsFrom(details: ErrorDetail[]): TableProblem[] {
  return details.map((d) => ({ param: paramOf(d.path), message: paramOf(d.path) ? d.message : `${d.path}: ${d.message}` }));
}

function href(query: TableQuery): string {
  const params = new URLSearchParams();
  for (const name of TABLE_PARAMS) if (query[name]) params.set(name, query[name]);
  const text = params.toString();
  return text ? `?${text}` : "?";
}

/** The page after (or before) this one: the same parameters with another cursor. */
export function pageHref(query: TableQuery, cursor: string): string {
  return href({ ...query, cursor });
}

/**
 * Sorting by a column: its current order flipped when the table is already sorted by it, otherwise
 * newest (latest) first. Always from the first page: a cursor belongs to one sort.
 */
export function sortHref(query: TableQuery, current: { property: string; order: string }, property: SortProperty): string {
  const order = current.property === property ? (current.order === "asc" ? "desc" : "asc") : DEFAULT_ORDER;
  return href({ ...query, cursor: undefined, sort: property, order });
}

/** A string safe inside single quotes in a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
