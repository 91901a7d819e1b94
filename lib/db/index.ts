// The one Prisma client of the process. SQLite (default) and PostgreSQL each have a generated client
// (prisma/schema.prisma and its derived prisma/postgres/schema.prisma); the code is typed against the
// SQLite one and uses only features both providers share.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";
import { config } from "../config";
import { serializedSqliteAdapter } from "./serialized-sqlite-adapter";
import { processSingleton } from "../core/process-singleton";

export type Db = SqliteClient;
/** The client passed into `$transaction` callbacks. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Prisma's defaults give a transaction 2 s to get a connection and 5 s to run. A burst of concurrent
 * create-issue-send (40 at once in e2e email.spec, on a loaded machine) queues for PostgreSQL's pool
 * longer than that and failed with P2028 (a 500) although nothing was wrong; waiting is the right answer.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 20_000 };

export function createDb(databaseUrl: string): Db {
  if (databaseUrl.startsWith("file:")) {
    return new SqliteClient({ adapter: serializedSqliteAdapter(databaseUrl), transactionOptions: TRANSACTION_OPTIONS });
  }
  const client = new PostgresClient({ adapter: new PrismaPg({ connectionString: databaseUrl }), transactionOptions: TRANSACTION_OPTIONS });
  return client as unknown as Db;
}

/** One client per process (and one across Next's dev-mode module reloads). */
export function db(): Db {
  return processSingleton("db.client", () => createDb(config().databaseUrl));
}
