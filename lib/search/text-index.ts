// The indexes that narrow a recipient substring search (`contains`, `startsWith`, `endsWith` on
// recipient.name / recipient.email) to the recipients that may match. Only ever a narrowing: the exact
// LIKE next to it (sql.ts) decides, so an index can speed a search up but never change its answer.
//
// - Needles of 3 characters or more: trigram indexes (migration recipient_text_search). PostgreSQL's
//   pg_trgm GIN indexes serve the LIKE directly, so nothing is added there; SQLite's LIKE with an ESCAPE
//   clause cannot use its FTS5 trigram table, so the table is asked here.
// - Needles of 1 or 2 characters, which have no trigram: the characters and pairs of adjacent
//   characters of every name and email (migration recipient_short_text_search): an FTS5 table on
//   SQLite whose tokens name the organization, so a lookup or a count reads only its recipients; GIN
//   indexes on generated columns (`cis_text_grams(column)`) on PostgreSQL.
//
// Characters are Unicode code points on both engines (SQLite's substr and length, PostgreSQL's in a
// UTF-8 database), hence the spread below rather than String.length.
import { Prisma } from "../generated/sqlite/client";

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export type TextField = "recipient.name" | "recipient.email";
type Engine = "sqlite" | "postgresql";

/** The smallest needle the trigram indexes can look up. */
const TRIGRAM = 3;

const COLUMN = { "recipient.name": "nameNormalized", "recipient.email": "emailNormalized" } as const;
/** PostgreSQL: the generated columns holding each value's characters and pairs (cis_text_grams). */
const GRAMS_COLUMN = { "recipient.name": "nameGrams", "recipient.email": "emailGrams" } as const;
/** The field letter of the tokens in "RecipientGram" (the migration's n1/n2 and m1/m2). */
const GRAM_FIELD = { "recipient.name": "n", "recipient.email": "m" } as const;

function codePoints(needle: string): number {
  return [...needle].length;
}

/**
 * A condition on the recipient row `alias` that holds for every recipient whose field contains
 * `needle`, answered from an index; null when no index helps (an empty needle, or a trigram needle on
 * PostgreSQL, whose LIKE the trigram index already serves).
 */
export function substringCandidates(field: TextField, needle: string, engine: Engine, alias: string, organizationId: string): Sql | null {
  const length = codePoints(needle);
  if (length === 0) return null;
  const rowid = raw(`${alias}."rowid"`);
  if (length >= TRIGRAM) {
    if (engine !== "sqlite") return null;
    return sql`(${rowid} IN (SELECT "rowid" FROM "RecipientText" WHERE "RecipientText" MATCH ${trigramQuery(field, needle)}))`;
  }
  if (engine === "sqlite")
    return sql`(${rowid} IN (SELECT "rowid" FROM "RecipientGram" WHERE "RecipientGram" MATCH ${gramQuery(organizationId, field, needle)}))`;
  return sql`(${raw(`${alias}."${GRAMS_COLUMN[field]}"`)} @> ARRAY[${needle}::text])`;
}

/**
 * The recipient column `alias.<field>` for the exact LIKE of a substring `needle`. On PostgreSQL a needle
 * shorter than a trigram gets it as an expression, `(column || '')`, which the pg_trgm index cannot
 * serve: for such a LIKE that index has nothing to look up and reads itself whole (150 ms at 300,000
 * recipients), yet the planner combined it with the pair index (BitmapAnd) once statistics were fresh.
 */
export function likeColumn(field: TextField, needle: string, engine: Engine, alias: string): Sql {
  const column = `${alias}."${COLUMN[field]}"`;
  const length = codePoints(needle);
  return raw(engine === "postgresql" && length > 0 && length < TRIGRAM ? `(${column} || '')` : column);
}

/**
 * SQLite: the candidates in the index `needle` is looked up in, counted up to `cap`: every
 * organization's for a trigram needle, the organization's own for a shorter one; null for an empty
 * needle. (PostgreSQL counts the organization's recipients with the exact condition instead: its
 * indexes serve that query directly.)
 */
export function sqliteCandidateCount(organizationId: string, field: TextField, needle: string, cap: number): Sql | null {
  const length = codePoints(needle);
  if (length === 0) return null;
  const lookup =
    length >= TRIGRAM
      ? sql`SELECT "rowid" FROM "RecipientText" WHERE "RecipientText" MATCH ${trigramQuery(field, needle)}`
      : sql`SELECT "rowid" FROM "RecipientGram" WHERE "RecipientGram" MATCH ${gramQuery(organizationId, field, needle)}`;
  return sql`SELECT count(*) AS "n" FROM (${lookup} LIMIT ${cap})`;
}

/** The FTS5 query for recipients whose field may contain `needle` (3 characters or more). */
function trigramQuery(field: TextField, needle: string): string {
  // An FTS5 phrase in double quotes (quotes doubled) is matched as a plain substring by the trigram
  // tokenizer: no operator, wildcard or column name inside it has any meaning.
  return `{${COLUMN[field]}} : "${needle.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 query for the organization's recipients whose field may contain `needle` (1 or 2
 * characters): its one token, or the token of values too long for the migration's position table (zz).
 * Tokens are letters and hex digits only, so nothing in them is FTS5 syntax.
 */
function gramQuery(organizationId: string, field: TextField, needle: string): string {
  const prefix = `o${hex(organizationId)}${GRAM_FIELD[field]}`;
  return `${prefix}${codePoints(needle)}${hex(needle)} OR ${prefix}zz`;
}

function hex(text: string): string {
  return Buffer.from(text, "utf8").toString("hex");
}
