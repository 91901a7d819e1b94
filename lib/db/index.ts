// The one Prisma client of the process. SQLite (default) and PostgreSQL each have a generated client
// (prisma/schema.prisma and its derived prisma/postgres/schema.prisma); the code is typed against the
// SQLite one and uses only features both providers share.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient as SqliteClient, type Prisma } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";
import { config } from "../config";
import { serializedSqliteAdapter } from "./serialized-sqlite-adapter";
import { processSingleton } from "../core/process-singleton";

export type Db = SqliteClient;
/** The client passed into `$transaction` callbacks. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * What hand-written SQL needs of a client: `$queryRaw` and `$executeRaw`, as a template or a
 * `Prisma.sql` query. The Prisma client and its transactions have them, and so has a transaction past
 * the client (direct-transaction.ts): a statement written against this runs in either.
 */
export type SqlClient = {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

/**
 * Prisma's defaults give a transaction 2 s to get a connection and 5 s to run. A burst of concurrent
 * create-issue-send (40 at once in e2e email.spec, on a loaded machine) queues for PostgreSQL's pool
 * longer than that and failed with P2028 (a 500) although nothing was wrong; waiting is the right answer.
 */
export const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 20_000 };

export function createDb(databaseUrl: string, postgresPool?: pg.Pool): Db {
  if (databaseUrl.startsWith("file:")) {
    return new SqliteClient({ adapter: serializedSqliteAdapter(databaseUrl), transactionOptions: TRANSACTION_OPTIONS });
  }
  const pool = postgresPool ?? newPostgresPool(databaseUrl);
  const adapter = new PrismaPg(pool);
  // The adapter recognises a pool by `instanceof`: a second copy of pg would make it open its own pool,
  // and direct transactions would no longer share the client's connections.
  if ((adapter as unknown as { externalPool: unknown }).externalPool !== pool)
    throw new Error("PrismaPg did not take the process's pg pool");
  const client = new PostgresClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  return client as unknown as Db;
}

/**
 * pg's pool as the Prisma adapter would make it (10 connections), waiting at most as long as a
 * transaction would. `$disconnect()` leaves a pool it was given open, so idle connections must not keep
 * a finished process (the CLI) alive.
 */
function newPostgresPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: TRANSACTION_OPTIONS.maxWait, allowExitOnIdle: true });
  // An idle connection the server closed is replaced on the next query; it must not crash the process.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * The process's PostgreSQL connections: the Prisma client's and those of transactions past it
 * (direct-transaction.ts), one pool so that the two together stay within its size.
 */
export function postgresPool(): pg.Pool {
  return processSingleton("db.postgresPool", () => newPostgresPool(config().databaseUrl));
}

/** One client per process (and one across Next's dev-mode module reloads). */
export function db(): Db {
  return processSingleton("db.client", () => {
    const { databaseUrl } = config();
    return createDb(databaseUrl, databaseUrl.startsWith("file:") ? undefined : postgresPool());
  });
}
