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
import { config } from "../config";
import { ApiError } from "../core/errors";
import { log } from "../log";
import { processSingleton } from "../core/process-singleton";
import type { Prisma } from "../generated/sqlite/client";
import { postgresTypes, postgresValue, preparedStatements, sqliteValue, statementOf } from "./drivers";
import { db, postgresPool, TRANSACTION_OPTIONS, type SqlClient } from "./index";
import { sqlitePath } from "./migrate";
import { autocheckpointPragma } from "./wal-checkpointer";
import { CONNECTION_PRAGMAS, sqliteConnectionLock, type ConnectionLock } from "./serialized-sqlite-adapter";

/** The transaction's statements are a fixed set of call sites; a few hundred covers them with room. */
const SQLITE_STATEMENT_CACHE = 200;

/**
 * What a transaction that could not get the database in time, or ran past its time, answers: nothing
 * was written, and trying again later is right. The limits are the Prisma transactions' (lib/db/index.ts).
 */
function databaseBusy(): ApiError {
  return new ApiError(
    "service_unavailable",
    "The database is too busy to take this change now; nothing was changed. Try again in a few seconds.",
    {
      headers: { "Retry-After": "5" },
    },
  );
}

/** Why a transaction was refused or abandoned, logged once per transaction (operators watch for it). */
function abandoned(reason: "no_lock_in_time" | "no_connection_in_time" | "ran_past_deadline" | "sqlite_busy"): ApiError {
  log.warn("transaction_abandoned", { reason });
  return databaseBusy();
}

type Statement = TemplateStringsArray | Prisma.Sql;

/**
 * A client for one transaction's statements. Once the transaction is over (committed, rolled back, or
 * abandoned at its deadline) it refuses to run anything: a statement of work that outlived its
 * transaction would otherwise run on its own, outside any transaction.
 */
function guardedClient(
  over: () => boolean,
  query: (text: Statement, values: unknown[]) => Promise<unknown>,
  execute: (text: Statement, values: unknown[]) => Promise<number>,
): SqlClient {
  const refuseWhenOver = () => {
    if (over()) throw databaseBusy();
  };
  return {
    $queryRaw: async <T>(text: Statement, ...values: unknown[]) => {
      refuseWhenOver();
      return (await query(text, values)) as T;
    },
    $executeRaw: async (text: Statement, ...values: unknown[]) => {
      refuseWhenOver();
      return execute(text, values);
    },
  };
}

/** A lock wait with a limit: past it the lock, once granted, is given back at once. */
async function acquireWithin(lock: ConnectionLock, ms: number): Promise<() => void> {
  const acquired = lock.acquire();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(abandoned("no_lock_in_time")), ms)));
  try {
    return await Promise.race([acquired, late]);
  } catch (error) {
    void acquired.then((release) => release());
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The process's writer connection to a SQLite file; opened again when one cannot roll back. */
class SqliteWriter {
  readonly lock: ConnectionLock;
  connection!: Database.Database;
  prepared!: (sql: string) => Database.Statement;

  constructor(private readonly file: string) {
    this.lock = sqliteConnectionLock(file);
    this.open();
  }

  private open() {
    this.connection = new Database(this.file, { timeout: 5000 });
    this.connection.exec(CONNECTION_PRAGMAS + autocheckpointPragma(this.file));
    this.prepared = preparedStatements(this.connection, SQLITE_STATEMENT_CACHE);
  }

  begin() {
    if (!this.connection.open) this.open();
    this.connection.exec("BEGIN IMMEDIATE");
  }

  /**
   * Ends the open transaction without its changes. Never throws (it runs from a timer too): a
   * connection that cannot roll back is closed, which discards its transaction, and the next
   * transaction opens a new one.
   */
  rollback() {
    try {
      if (this.connection.inTransaction) this.connection.exec("ROLLBACK");
    } catch {
      try {
        this.connection.close();
      } catch {
        // Nothing more to do with it; begin() replaces a connection that is not open.
      }
    }
  }
}

function sqliteWriter(file: string): SqliteWriter {
  return processSingleton(`db.sqliteWriter:${file}`, () => new SqliteWriter(file));
}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

async function sqliteTransaction<T>(writer: SqliteWriter, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const release = await acquireWithin(writer.lock, TRANSACTION_OPTIONS.maxWait);
  let over = false;
  // Rolls back and gives the lock back, once: after a failure, or at the deadline while the work
  // still runs (its next statement is then refused).
  const abandon = () => {
    if (over) return;
    over = true;
    try {
      writer.rollback();
    } finally {
      release();
    }
  };
  const deadline = setTimeout(() => {
    if (!over) abandoned("ran_past_deadline");
    abandon();
  }, TRANSACTION_OPTIONS.timeout);
  const statement = (text: Statement, values: unknown[]) => {
    const parsed = statementOf(text, values);
    return { prepared: writer.prepared(parsed.sqlite), values: parsed.values.map(sqliteValue) };
  };
  // better-sqlite3 runs each statement synchronously; the promises only keep Prisma's calling shape.
  const client = guardedClient(
    () => over,
    async (text, values) => {
      const { prepared, values: bound } = statement(text, values);
      return prepared.reader ? prepared.all(...bound) : (prepared.run(...bound), []);
    },
    async (text, values) => {
      const { prepared, values: bound } = statement(text, values);
      return prepared.run(...bound).changes;
    },
  );
  try {
    writer.begin();
    const result = await work(client);
    if (over) throw databaseBusy();
    writer.connection.exec("COMMIT");
    over = true;
    release();
    return result;
  } catch (error) {
    const pastDeadline = over;
    abandon();
    if (pastDeadline) throw databaseBusy();
    // Another process held SQLite's write lock past busy_timeout: as busy as a lock wait here.
    throw isSqliteBusy(error) ? abandoned("sqlite_busy") : error;
  } finally {
    clearTimeout(deadline);
  }
}

function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message);
}

async function postgresTransaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const connection = await postgresPool()
    .connect()
    .catch((error: unknown) => {
      throw isPoolWaitTimeout(error) ? abandoned("no_connection_in_time") : error;
    });
  // A connection the server ended mid-transaction (a restart, a failover, a killed backend) emits
  // 'error'; unheard, Node would end the process. It is then destroyed rather than given back, and so
  // is one whose BEGIN or ROLLBACK failed (its state unknown).
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  connection.on("error", onError);
  let over = false;
  let ended: Promise<void> | undefined;
  // Rolls back and gives the connection back, once (pg runs the ROLLBACK after a statement in flight).
  const abandon = () =>
    (ended ??= (async () => {
      over = true;
      if (!broken) await connection.query("ROLLBACK").catch(onError);
      connection.removeListener("error", onError);
      connection.release(broken);
    })());
  const deadline = setTimeout(() => {
    if (!over) abandoned("ran_past_deadline");
    void abandon();
  }, TRANSACTION_OPTIONS.timeout);
  const run = (text: Statement, values: unknown[]) => {
    const statement = statementOf(text, values);
    return connection.query({
      name: statement.postgresName,
      text: statement.postgres,
      values: statement.values.map(postgresValue),
      types: postgresTypes,
    });
  };
  const client = guardedClient(
    () => over,
    async (text, values) => (await run(text, values)).rows as Record<string, unknown>[],
    async (text, values) => (await run(text, values)).rowCount ?? 0,
  );
  try {
    await connection.query("BEGIN").catch((error: Error) => {
      onError(error);
      throw error;
    });
    const result = await work(client);
    if (over) throw databaseBusy();
    await connection.query("COMMIT");
    // Committed. A deadline that passed during the COMMIT already gives the connection back.
    if (!ended) {
      over = true;
      ended = Promise.resolve();
      connection.removeListener("error", onError);
      connection.release();
    }
    return result;
  } catch (error) {
    const pastDeadline = over;
    await abandon();
    throw pastDeadline ? databaseBusy() : error;
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * Runs `work` in one transaction past the Prisma client: all of its statements commit, or none. Like a
 * Prisma transaction it waits at most 15 s for the database and may run 20 s; past either it is rolled
 * back and answers 503 (`service_unavailable`, Retry-After). The work must not use `db()`: on SQLite
 * that waits for the lock this transaction holds.
 */
export function directTransaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const { databaseUrl } = config();
  if (!databaseUrl.startsWith("file:")) return postgresTransaction(work);
  const file = sqlitePath(databaseUrl);
  if (file === ":memory:" || file === "") return db().$transaction((tx) => work(tx));
  return sqliteTransaction(sqliteWriter(file), work);
}
