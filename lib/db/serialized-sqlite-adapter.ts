// The SQLite driver adapter shares one better-sqlite3 connection between all queries. Its own mutex
// only orders transactions against each other, so a plain query issued while another request's
// transaction is open would run *inside* that transaction (and vanish if it rolls back). This wrapper
// makes the connection exclusive: a transaction holds it from BEGIN to COMMIT/ROLLBACK, and a plain
// query waits for it. SQLite has a single writer anyway, so nothing is lost in throughput. The lock is
// the process's one for the file (sqliteConnectionLock): direct-transaction.ts writes through a
// connection of its own and takes the same lock, so the two never hold a write transaction at once
// (better-sqlite3 waits for SQLite's lock synchronously, which would block the event loop that the
// other transaction needs to finish).
//
// Transactions also start with BEGIN IMMEDIATE rather than the adapter's plain BEGIN: a deferred
// transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when another process (the
// CLI, a second server) committed in between, and no waiting helps; an immediate one takes the write
// lock up front and waits for it (busy_timeout).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import path from "node:path";
import { processSingleton } from "../core/process-singleton";
import { sqlitePath } from "./migrate";
import { autocheckpointPragma } from "./wal-checkpointer";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";

/** A first-in, first-out lock. */
export class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** The process's one lock on the SQLite file `file` (a path, as in the database URL). */
export function sqliteConnectionLock(file: string): ConnectionLock {
  return processSingleton(`db.sqliteLock:${path.resolve(file)}`, () => new ConnectionLock());
}

// Applied to every new connection: WAL lets readers in other processes (the CLI) proceed while the
// server writes; foreign keys are off by default in SQLite; busy_timeout waits out another process.
export const CONNECTION_PRAGMAS = `
  PRAGMA journal_mode = WAL;
  PRAGMA synchronous = NORMAL;
  PRAGMA foreign_keys = ON;
  PRAGMA busy_timeout = 5000;
`;

function serialize(adapter: SqlDriverAdapter, lock: ConnectionLock): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query: SqlQuery) => lock.run(() => adapter.queryRaw(query)),
    executeRaw: (query: SqlQuery) => lock.run(() => adapter.executeRaw(query)),
    executeScript: (script: string) => lock.run(() => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
        throw new Error(`SQLite transactions are always SERIALIZABLE, not ${isolationLevel}`);
      }
      const release = await lock.acquire();
      try {
        await adapter.executeScript("BEGIN IMMEDIATE");
      } catch (error) {
        release();
        throw error;
      }
      let open = true;
      const end = async () => {
        if (open) {
          open = false;
          release();
        }
      };
      // With usePhantomQuery false, Prisma sends COMMIT or ROLLBACK through executeRaw itself and then
      // calls commit()/rollback(), which only have to give the connection back.
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        options: { usePhantomQuery: false },
        queryRaw: (query: SqlQuery) => adapter.queryRaw(query),
        executeRaw: (query: SqlQuery) => adapter.executeRaw(query),
        commit: end,
        rollback: end,
      };
    },
  };
}

export function serializedSqliteAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaBetterSQLite3({ url });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      await adapter.executeScript(CONNECTION_PRAGMAS);
      const file = sqlitePath(url);
      const checkpoints = file === ":memory:" || file === "" ? "" : autocheckpointPragma(file);
      if (checkpoints) await adapter.executeScript(checkpoints);
      // An in-memory database is private to its connection: nothing else can share its lock.
      return serialize(adapter, file === ":memory:" || file === "" ? new ConnectionLock() : sqliteConnectionLock(file));
    },
    async connectToShadowDb() {
      return serialize(await inner.connectToShadowDb(), new ConnectionLock());
    },
  };
}
