// Transactions past the Prisma client, for the write that every issuing request makes
// (create-issue-send: about ten statements). Inside a Prisma interactive transaction each statement,
// plain SQL included, goes through the client's request pipeline and query compiler, and on SQLite is
// prepared anew: in bench:issue's profile that was 40% of the server's CPU, more than the statements
// themselves. Here the same statements (written against `SqlClient`, so they run in either kind of
// transaction) go to the driver: on SQLite a connection of our own that keeps its statements prepared
// and takes the process's lock on the file (serialized-sqlite-adapter.ts) for the whole transaction,
// on PostgreSQL a connection of the pool the Prisma client uses.
//
// Same guarantees as `db().$transaction`: BEGIN IMMEDIATE on SQLite (the write lock up front, waiting
// out another process), PostgreSQL's default isolation, everything rolled back when `work` throws. An
// in-memory SQLite database cannot be opened twice: there the work runs in a Prisma transaction.
import Database from "better-sqlite3";
import type pg from "pg";
import { config } from "../config";
import { processSingleton } from "../core/process-singleton";
import type { Prisma } from "../generated/sqlite/client";
import { postgresTypes, postgresValue, preparedStatements, sqliteValue, statementOf } from "./drivers";
import { db, postgresPool, type SqlClient } from "./index";
import { sqlitePath } from "./migrate";
import { CONNECTION_PRAGMAS, sqliteConnectionLock, type ConnectionLock } from "./serialized-sqlite-adapter";

/** The transaction's statements are a fixed set of call sites; a few hundred covers them with room. */
const SQLITE_STATEMENT_CACHE = 200;

type SqliteWriter = { lock: ConnectionLock; prepared: (sql: string) => Database.Statement; connection: Database.Database };

function sqliteWriter(file: string): SqliteWriter {
  return processSingleton(`db.sqliteWriter:${file}`, () => {
    const connection = new Database(file, { timeout: 5000 });
    connection.exec(CONNECTION_PRAGMAS);
    return { lock: sqliteConnectionLock(file), prepared: preparedStatements(connection, SQLITE_STATEMENT_CACHE), connection };
  });
}

function sqliteClient(writer: SqliteWriter): SqlClient {
  const run = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const statement = statementOf(query, values);
    return { prepared: writer.prepared(statement.sqlite), values: statement.values.map(sqliteValue) };
  };
  return {
    // better-sqlite3 runs the statement synchronously; the promise only keeps Prisma's calling shape.
    $queryRaw: <T,>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      new Promise<T>((resolve) => {
        const { prepared, values: bound } = run(query, values);
        resolve((prepared.reader ? prepared.all(...bound) : (prepared.run(...bound), [])) as T);
      }),
    $executeRaw: (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      new Promise<number>((resolve) => {
        const { prepared, values: bound } = run(query, values);
        resolve(prepared.run(...bound).changes);
      }),
  };
}

async function sqliteTransaction<T>(writer: SqliteWriter, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const release = await writer.lock.acquire();
  try {
    writer.connection.exec("BEGIN IMMEDIATE");
    try {
      const result = await work(sqliteClient(writer));
      writer.connection.exec("COMMIT");
      return result;
    } catch (error) {
      // A failed COMMIT or a statement error may already have ended the transaction.
      if (writer.connection.inTransaction) writer.connection.exec("ROLLBACK");
      throw error;
    }
  } finally {
    release();
  }
}

function postgresClient(connection: pg.PoolClient): SqlClient {
  const query = async (text: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const statement = statementOf(text, values);
    return connection.query({ name: statement.postgresName, text: statement.postgres, values: statement.values.map(postgresValue), types: postgresTypes });
  };
  return {
    $queryRaw: async <T,>(text: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await query(text, values)).rows as T,
    $executeRaw: async (text: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await query(text, values)).rowCount ?? 0,
  };
}

async function postgresTransaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const connection = await postgresPool().connect();
  // A connection whose BEGIN or ROLLBACK failed is in an unknown state: destroyed rather than given back.
  let broken: Error | undefined;
  try {
    await connection.query("BEGIN").catch((error: Error) => {
      broken = error;
      throw error;
    });
    try {
      const result = await work(postgresClient(connection));
      await connection.query("COMMIT");
      return result;
    } catch (error) {
      await connection.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
  } finally {
    connection.release(broken);
  }
}

/** Runs `work` in one transaction past the Prisma client: all of its statements commit, or none. */
export function directTransaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const { databaseUrl } = config();
  if (!databaseUrl.startsWith("file:")) return postgresTransaction(work);
  const file = sqlitePath(databaseUrl);
  if (file === ":memory:" || file === "") return db().$transaction((tx) => work(tx));
  return sqliteTransaction(sqliteWriter(file), work);
}
