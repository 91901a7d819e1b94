// The indexes that narrow a recipient substring search (`contains`, `startsWith`, `endsWith` on
// recipient.name / recipient.email) to the recipients that may match. Only ever a narrowing: the exact
// LIKE next to it (sql.ts) decides, so an index can speed a search up but never change its answer.
//
// - Needles of 3 characters or more: trigram indexes (migration recipient_text_search). PostgreSQL's
//   pg_trgm GIN indexes serve the LIKE directly, so nothing is added there; SQLite's LIKE with an ESCAPE
//   clause cannot use its FTS5 trigram table, so the table is asked here.
// - Needles of 1 or 2 characters, which have no trigram: the characters and pairs of adjacent
//   characters of every name and email (migration recipient_short_text_search): an FTS5 table on
//   SQLite, GIN indexes on `cis_text_grams(column)` on PostgreSQL.
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
/** The token prefix of each field in "RecipientGram" (the migration's n1/n2 and e1/e2). */
const GRAM_PREFIX = { "recipient.name": "n", "recipient.email": "e" } as const;

function codePoints(needle: string): number {
  return [...needle].length;
}

/**
 * A condition on the recipient row `alias` that holds for every recipient whose field contains
 * `needle`, answered from an index; null when no index helps (an empty needle, or a trigram needle on
 * PostgreSQL, whose LIKE the trigram index already serves).
 */
export function substringCandidates(field: TextField, needle: string, engine: Engine, alias: string): Sql | null {
  const length = codePoints(needle);
  if (length === 0) return null;
  const rowid = raw(`${alias}."rowid"`);
  if (length >= TRIGRAM) {
    if (engine !== "sqlite") return null;
    return sql`(${rowid} IN (SELECT "rowid" FROM "RecipientText" WHERE "RecipientText" MATCH ${trigramQuery(field, needle)}))`;
  }
  if (engine === "sqlite") return sql`(${rowid} IN (SELECT "rowid" FROM "RecipientGram" WHERE "RecipientGram" MATCH ${gramQuery(field, needle)}))`;
  return sql`("cis_text_grams"(${raw(`${alias}."${COLUMN[field]}"`)}) @> ARRAY[${needle}::text])`;
}

/**
 * SQLite: the candidates of every organization in the index `needle` is looked up in, counted up to
 * `cap`; null for an empty needle. (PostgreSQL counts the organization's recipients with the exact
 * condition instead: its indexes serve that query directly.)
 */
export function sqliteCandidateCount(field: TextField, needle: string, cap: number): Sql | null {
  const length = codePoints(needle);
  if (length === 0) return null;
  const lookup =
    length >= TRIGRAM
      ? sql`SELECT "rowid" FROM "RecipientText" WHERE "RecipientText" MATCH ${trigramQuery(field, needle)}`
      : sql`SELECT "rowid" FROM "RecipientGram" WHERE "RecipientGram" MATCH ${gramQuery(field, needle)}`;
  return sql`SELECT count(*) AS "n" FROM (${lookup} LIMIT ${cap})`;
}

/** The FTS5 query for recipients whose field may contain `needle` (3 characters or more). */
function trigramQuery(field: TextField, needle: string): string {
  // An FTS5 phrase in double quotes (quotes doubled) is matched as a plain substring by the trigram
  // tokenizer: no operator, wildcard or column name inside it has any meaning.
  return `{${COLUMN[field]}} : "${needle.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 query for recipients whose field may contain `needle` (1 or 2 characters): its one token, or
 * the token of values too long for the migration's position table (zz). Tokens are letters and hex
 * digits only, so nothing in them is FTS5 syntax.
 */
export function gramQuery(field: TextField, needle: string): string {
  const prefix = GRAM_PREFIX[field];
  return `${prefix}${codePoints(needle)}${Buffer.from(needle, "utf8").toString("hex")} OR ${prefix}zz`;
}
