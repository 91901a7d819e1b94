// Sort order and keyset positions for search. A sort on a nullable property is walked as two segments:
// the credentials with a value (ordered by it, then id) and then those without (ordered by id). Each
// segment is a plain index range on both databases, which `ORDER BY ... NULLS LAST` is not (PostgreSQL
// cannot read a default b-tree backwards as DESC NULLS LAST).
import { Prisma } from "../generated/sqlite/client";
import type { Sort, SortOrder, SortProperty } from "./fields";

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** Where a page starts or ends: the segment, the sort value there (null in the null segment) and the id. */
export type Position = { segment: number; value: string | null; id: string };

export type Segment = {
  /** Which credentials the segment holds. */
  where: Sql;
  /** The sort value of a row in this segment (as stored in a cursor). */
  valueOf: (row: SortableRow) => string | null;
  /**
   * Condition for rows strictly after `position` in walking direction, and the ORDER BY for it over
   * the columns of a table alias (`c` in the query itself, another when merging sub-results).
   */
  after: (position: Position | null, backwards: boolean) => { where: Sql; orderBy: (alias?: string) => Sql };
};

export type SortableRow = { id: string; createdAt: Date; updatedAt: Date; issueDate: string; expiryDate: string | null };

const NULLABLE: Record<SortProperty, boolean> = { id: false, createdAt: false, updatedAt: false, issueDate: false, expiryDate: true };

function flip(order: SortOrder): SortOrder {
  return order === "asc" ? "desc" : "asc";
}

function valueOf(property: SortProperty, row: SortableRow): string | null {
  switch (property) {
    case "id":
      return null;
    case "createdAt":
    case "updatedAt":
      return row[property].toISOString();
    case "issueDate":
    case "expiryDate":
      return row[property];
  }
}

/** A cursor's stored value back to the SQL parameter it was compared as. */
function parameter(property: SortProperty, value: string): Date | string {
  return property === "createdAt" || property === "updatedAt" ? new Date(value) : value;
}

/** The segments of a sort, in forward order. */
export function segments(sort: Sort): Segment[] {
  const columnOf = (alias = "c") => raw(`${alias}."${sort.property}"`);
  const idOf = (alias = "c") => raw(`${alias}."id"`);
  const column = columnOf();
  const id = idOf();
  const direction = (backwards: boolean) => (backwards ? flip(sort.order) : sort.order);
  const comparator = (order: SortOrder) => raw(order === "asc" ? ">" : "<");
  const keyword = (order: SortOrder) => raw(order === "asc" ? "ASC" : "DESC");

  // Ordered by id alone: a sort on id, and the null segment of a nullable sort.
  const byIdOnly = (where: Sql): Segment => ({
    where,
    valueOf: () => null,
    after: (position, backwards) => {
      const order = direction(backwards);
      return {
        where: position ? sql`(${id} ${comparator(order)} ${position.id})` : raw("(1 = 1)"),
        orderBy: (alias) => sql`${idOf(alias)} ${keyword(order)}`,
      };
    },
  });
  if (sort.property === "id") return [byIdOnly(raw("(1 = 1)"))];

  const valued: Segment = {
    where: NULLABLE[sort.property] ? sql`(${column} IS NOT NULL)` : raw("(1 = 1)"),
    valueOf: (row) => valueOf(sort.property, row),
    after: (position, backwards) => {
      const order = direction(backwards);
      // A row value comparison is one index range on both engines.
      const where =
        position && position.value !== null
          ? sql`((${column}, ${id}) ${comparator(order)} (${parameter(sort.property, position.value)}, ${position.id}))`
          : raw("(1 = 1)");
      return { where, orderBy: (alias) => sql`${columnOf(alias)} ${keyword(order)}, ${idOf(alias)} ${keyword(order)}` };
    },
  };
  if (!NULLABLE[sort.property]) return [valued];

  return [valued, byIdOnly(sql`(${column} IS NULL)`)];
}
