// Keyset pagination for lists ordered newest first (a timestamp desc, then id desc). The cursor
// encodes the position of the row it continues from, not an offset, so pages stay exact while rows
// are added.
import { z } from "zod";
import { singleLineText } from "./text";
import { decodeCursor, encodeCursor } from "./cursor";
import { invalidField } from "./errors";

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 100;

export const LIMIT_MESSAGE = "must be an integer from 1 to 100";

/** `limit` as a query parameter: decimal digits only (not 0x10, 1e1, +5 or 10.0), 1 to 100, default 20. */
export const limitSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return LIMIT_DEFAULT;
    const n = /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= LIMIT_MAX)) {
      ctx.addIssue({ code: "custom", message: LIMIT_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

export const paginationQuery = {
  cursor: singleLineText().min(1, "must not be empty").max(2000).optional(),
  limit: limitSchema,
};

export type Page<T> = { data: T[]; pagination: { prev: string | null; next: string | null } };

type Position = { t: string; id: string; d: "next" | "prev" };

type SortKey = "createdAt" | "triggeredAt";
type KeysetWhere<K extends SortKey> = {
  OR: (Record<K, { lt: Date } | { gt: Date }> | (Record<K, Date> & { id: { lt: string } | { gt: string } }))[];
};
type KeysetOrder<K extends SortKey> = [Record<K, "asc" | "desc">, { id: "asc" | "desc" }];

function parsePosition(scope: string, cursor: string): Position {
  const data = decodeCursor(scope, cursor);
  const ok =
    data &&
    typeof data.t === "string" &&
    typeof data.id === "string" &&
    (data.d === "next" || data.d === "prev") &&
    !Number.isNaN(Date.parse(data.t));
  if (!ok) throw invalidField("cursor", "is not a valid cursor for this list");
  return data as unknown as Position;
}

/**
 * One page of a newest-first list. `fetch` runs the query with the keyset condition and order it is
 * given (merge `where` with the caller's own filter).
 */
export async function newestFirstPage<T extends { id: string } & Record<K, Date>, R, K extends SortKey = "createdAt">(options: {
  scope: string;
  cursor: string | undefined;
  limit: number;
  /** The timestamp the list is ordered by (default createdAt). */
  key?: K;
  fetch: (args: { where: KeysetWhere<K> | undefined; orderBy: KeysetOrder<K>; take: number }) => Promise<T[]>;
  serialize: (row: T) => R;
}): Promise<Page<R>> {
  const { scope, limit } = options;
  const key = (options.key ?? "createdAt") as K;
  const field = <V>(value: V) => ({ [key]: value }) as Record<K, V>;
  const position = options.cursor ? parsePosition(scope, options.cursor) : null;
  const backwards = position?.d === "prev";
  const at_ = position ? new Date(position.t) : null;
  const where: KeysetWhere<K> | undefined = at_
    ? backwards
      ? { OR: [field({ gt: at_ }), { ...field(at_), id: { gt: position.id } }] }
      : { OR: [field({ lt: at_ }), { ...field(at_), id: { lt: position!.id } }] }
    : undefined;
  const orderBy: KeysetOrder<K> = backwards ? [field("asc" as const), { id: "asc" }] : [field("desc" as const), { id: "desc" }];
  const rows = await options.fetch({ where, orderBy, take: limit + 1 });
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();

  const at = (row: T | undefined, d: "next" | "prev") => (row ? encodeCursor(scope, { t: row[key].toISOString(), id: row.id, d }) : null);
  const first = page[0];
  const last = page[page.length - 1];
  const pagination = backwards
    ? { prev: more ? at(first, "prev") : null, next: at(last, "next") }
    : { prev: position ? at(first, "prev") : null, next: more ? at(last, "next") : null };
  return { data: page.map(options.serialize), pagination };
}
