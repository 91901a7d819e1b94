// Reads that bypass the Prisma client: for the few statements every hot request runs (the API token
// lookup, `GET /v1/groups|designs|credentials/{id}`, search's statements). Measured in one process on SQLite: the token lookup
// cost 330–500 µs of CPU through `$queryRaw` and 8–14 µs as a prepared better-sqlite3 statement; with two
// such statements per read, Prisma's request pipeline was most of the gap between a /v1 read and a
// trivial route (bench:api). Only single statements outside a transaction belong here; a transaction
// runs on the Prisma client or, where Prisma is the measured cost, in direct-transaction.ts.
//
// SQLite: a second connection to the same file, used only for these reads (query_only). In WAL mode it
// sees every committed write, never waits for the Prisma connection's write transactions, and keeps
// its statements prepared. PostgreSQL: a small pool of its own, with timestamps read as UTC like
// Prisma's adapter reads them. An in-memory SQLite database (tests) cannot be opened twice: there the
// statement goes through Prisma.
import Database from "better-sqlite3";
import pg from "pg";
import { config } from "../config";
import { processSingleton } from "../core/process-singleton";
import { Prisma } from "../generated/sqlite/client";
import {
  postgresStatementName,
  postgresTypes,
  postgresValue,
  preparedStatements,
  sqliteValue,
  textsOf,
  type DirectValue,
  type StatementText,
} from "./drivers";
import { db, type DbOrTx } from "./index";
import { sqlitePath } from "./migrate";

export type { DirectValue } from "./drivers";

/** One statement: its text per engine, its parameters, and the same as a Prisma query (the fallback). */
type Statement = StatementText & { values: readonly unknown[]; prisma: () => Prisma.Sql };
type Reader = (statement: Statement) => Promise<Record<string, unknown>[]>;

/** Connections of the pool: enough for the hot reads of one process; writes have Prisma's own pool. */
const POSTGRES_READ_CONNECTIONS = 4;
/** Prepared SQLite statements kept per process (search's texts vary with the filter's shape). */
const SQLITE_STATEMENT_CACHE = 500;

function sqliteReader(file: string): Reader {
  const connection = new Database(file, { timeout: 5000 });
  connection.pragma("query_only = ON");
  const prepared = preparedStatements(connection, SQLITE_STATEMENT_CACHE);
  return async ({ sqlite, values }) => prepared(sqlite).all(...values.map(sqliteValue)) as Record<string, unknown>[];
}

function postgresReader(url: string): Reader {
  // Idle connections must not keep a finished process (the CLI) alive for pg's idle timeout.
  const pool = new pg.Pool({ connectionString: url, max: POSTGRES_READ_CONNECTIONS, types: postgresTypes, allowExitOnIdle: true });
  // An idle connection the server closed is replaced on the next query; it must not crash the process.
  pool.on("error", () => undefined);
  return async ({ postgres, postgresName, values }) =>
    (await pool.query({ name: postgresName, text: postgres, values: values.map(postgresValue) })).rows as Record<string, unknown>[];
}

function prismaReader(): Reader {
  return async ({ prisma }) => db().$queryRaw<Record<string, unknown>[]>(prisma());
}

function reader(): Reader {
  return processSingleton("db.directReader", (): Reader => {
    const { databaseUrl } = config();
    if (!databaseUrl.startsWith("file:")) return postgresReader(databaseUrl);
    const file = sqlitePath(databaseUrl);
    return file === ":memory:" || file === "" ? prismaReader() : sqliteReader(file);
  });
}

/**
 * Rows of one read-only statement written as a template: `directRows\`SELECT … WHERE "id" = ${id}\``.
 * Values are bound as parameters. Column values come as each engine's driver gives them (read them with
 * lib/db/raw-values.ts): SQLite timestamps as text, booleans as 0/1; PostgreSQL as Date and boolean.
 */
export function directRows<T = Record<string, unknown>>(strings: TemplateStringsArray, ...values: DirectValue[]): Promise<T[]> {
  const text = textsOf(strings);
  return reader()({ ...text, values, prisma: () => Prisma.sql(strings, ...values) }) as Promise<T[]>;
}

/**
 * Rows of one read-only statement assembled with `Prisma.sql` (search builds its statement from the
 * filter): the same statement `db().$queryRaw(query)` would run, past the Prisma client. Date and
 * boolean parameters are bound as Prisma's adapters bind them, so comparisons with stored values agree.
 *
 * `prepared`: a statement of one fixed text, run often (the public faces' versions, read before every
 * cached answer), is named on PostgreSQL so that each connection plans it once; planning their joins
 * afresh was most of PostgreSQL's CPU per cached answer. Search's texts vary with the filter and stay
 * unnamed: a named statement may switch to a generic plan, which a skewed filter value would pay for.
 */
export function directQuery<T = Record<string, unknown>>(query: Prisma.Sql, options: { prepared?: boolean } = {}): Promise<T[]> {
  const postgresName = options.prepared ? preparedNameOf(query.text) : undefined;
  return reader()({ sqlite: query.sql, postgres: query.text, postgresName, values: query.values, prisma: () => query }) as Promise<T[]>;
}

/**
 * Names of prepared directQuery statements, by text. A statement stays on each connection once named,
 * so past a bound new texts go unnamed rather than pile up on the server.
 */
const preparedNames = new Map<string, string>();
const MAX_PREPARED_QUERIES = 50;

export function preparedNameOf(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= MAX_PREPARED_QUERIES) return known;
  const name = postgresStatementName(text);
  preparedNames.set(text, name);
  return name;
}

type RowsTag = <T = Record<string, unknown>>(strings: TemplateStringsArray, ...values: DirectValue[]) => Promise<T[]>;

/**
 * `directRows`, or within a transaction the same statement on the transaction's own connection (a read
 * inside a transaction must see its uncommitted writes): `readVia(tx)\`SELECT …\``.
 */
export function readVia(client: DbOrTx | undefined): RowsTag {
  if (client === undefined || client === db()) return directRows;
  return <T>(strings: TemplateStringsArray, ...values: DirectValue[]) => client.$queryRaw<T[]>(Prisma.sql(strings, ...values));
}
