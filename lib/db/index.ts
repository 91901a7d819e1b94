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

export function createDb(databaseUrl: string): Db {
  if (databaseUrl.startsWith("file:")) {
    return new SqliteClient({ adapter: serializedSqliteAdapter(databaseUrl) });
  }
  const client = new PostgresClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  return client as unknown as Db;
}

/** One client per process (and one across Next's dev-mode module reloads). */
export function db(): Db {
  return processSingleton("db.client", () => createDb(config().databaseUrl));
}
