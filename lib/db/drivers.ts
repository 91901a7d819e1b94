// What the statements that go past the Prisma client (direct-read.ts, direct-transaction.ts) share:
// parameters bound as Prisma's driver adapters bind them, so that what one path writes the other reads
// back and compares equal; PostgreSQL timestamps read as UTC; statement texts per engine built once per
// call site; and a bounded cache of prepared SQLite statements.
import type Database from "better-sqlite3";
import { createHash } from "node:crypto";
import pg from "pg";
import { Prisma } from "../generated/sqlite/client";

export type DirectValue = string | number | null;

/** A parameter as Prisma's SQLite adapter binds it (timestamps as ISO text with +00:00, booleans as 0/1). */
export function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** A parameter for `timestamp(3)` columns, which hold UTC: pg would send a Date in the process's time zone. */
export function postgresValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("T", " ").replace("Z", "");
  return value;
}

const TIMESTAMP_OID = 1114;

/** pg's type parsers, but `timestamp(3)` columns (UTC, as Prisma writes them) read as UTC rather than local time. */
export const postgresTypes = {
  getTypeParser: ((oid: number, format?: string): unknown =>
    oid === TIMESTAMP_OID
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * A statement's text per engine: `?` placeholders for SQLite, `$n` for PostgreSQL; and for a statement
 * written at a call site (a fixed text) the name PostgreSQL keeps it prepared under, per connection:
 * parsed and planned once rather than on every request. Statements assembled from a request's shape
 * (search) have no name: their texts are not a fixed set, and a plan for one set of values would be
 * kept for all of them.
 */
export type StatementText = { sqlite: string; postgres: string; postgresName?: string };

/** Statement texts per engine, built once per call site (template strings are the same object each time). */
const texts = new WeakMap<TemplateStringsArray, StatementText>();

/**
 * A PostgreSQL prepared statement's name (the server then plans the statement once per connection).
 * Named by its text: pg refuses one name for two texts on a connection, and Next loads several copies
 * of this module into one process (each would count its own statements from 1).
 */
export function postgresStatementName(text: string): string {
  return `cis_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`;
}

export function textsOf(strings: TemplateStringsArray): StatementText {
  let text = texts.get(strings);
  if (!text) {
    const postgres = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
    text = { sqlite: strings.join("?"), postgres, postgresName: postgresStatementName(postgres) };
    texts.set(strings, text);
  }
  return text;
}

/**
 * A statement given as Prisma's `$queryRaw` takes it (a template's parts and values, or a `Prisma.sql`
 * query, fragments included): its texts per engine and its flat list of values.
 */
export function statementOf(
  query: TemplateStringsArray | Prisma.Sql,
  values: readonly unknown[],
): StatementText & { values: readonly unknown[] } {
  if (query instanceof Prisma.Sql) return { sqlite: query.sql, postgres: query.text, values: query.values };
  // Nested Prisma.sql fragments (a list of rows, a join) need Prisma's flattening; plain values do not.
  if (values.some((value) => value instanceof Prisma.Sql)) return statementOf(Prisma.sql(query, ...values), []);
  return { ...textsOf(query), values };
}

/**
 * Prepared statements of one SQLite connection, kept for reuse (better-sqlite3 prepares anew on every
 * `prepare`). Some statements are assembled from a request's shape (search), so the texts are not a
 * fixed set: the least recently used is dropped past `size`.
 */
export function preparedStatements(connection: Database.Database, size: number): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement) {
      // Least recently used goes first: moved to the end on each use, so the hot statements stay prepared.
      statements.delete(sql);
    } else {
      statement = connection.prepare(sql);
      if (statements.size >= size) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
}
