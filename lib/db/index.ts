// The one Prisma client of the process. SQLite (default) and PostgreSQL each have a generated client
// (prisma/schema.prisma and its derived prisma/postgres/schema.prisma); the code is typed against the
// SQLite one and uses only features both providers share.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "../generated/sqlite/client";
import { PrismaClient as PostgresClient } from "../generated/postgres/client";
import { config } from "../config";
import { serializedSqliteAdapter } from "./serialized-sqlite-adapter";

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

// One client per process, kept on globalThis so that Next's dev-mode module reloads reuse it.
const globalForDb = globalThis as unknown as { __cisDb?: Db };

export function db(): Db {
  globalForDb.__cisDb ??= createDb(config().databaseUrl);
  return globalForDb.__cisDb;
}
