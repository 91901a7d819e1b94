// Checkpoints of a SQLite file in WAL mode, done by a worker thread instead of inside a COMMIT.
//
// By default the connection whose commit takes the write-ahead log past 1,000 pages copies the log back
// into the database file there and then, fsyncs included. better-sqlite3 runs statements synchronously,
// so for that time the server's whole event loop stands still: in bench:issue's profile COMMIT was the
// largest single cost (about a tenth of the server's time, most of it waiting for the disk), and
// 3,000 commits of issuing's size took 0.8 ms each with automatic checkpoints, 0.28 ms without.
//
// So in a server process (enableWalCheckpoints, at start) the writer connections checkpoint
// automatically only as a safety net (a log of tens of megabytes), and a worker thread with a
// connection of its own runs a PASSIVE checkpoint every few hundred milliseconds. Other processes
// (the CLI, tests) keep SQLite's default: they write little, and their files come and go. PASSIVE never waits for, nor blocks, writers and readers; SQLite restarts the
// log from its beginning at the next write once a checkpoint has copied all of it. Durability is
// unchanged: a commit is in the log before COMMIT returns, whoever copies it on later.
import { Worker } from "node:worker_threads";
import { createRequire } from "node:module";
import path from "node:path";
import { log } from "../log";
import { processSingleton, processSlot } from "../core/process-singleton";

/** How often the worker checkpoints: the log then holds a few hundred pages at issuing's full speed. */
const CHECKPOINT_EVERY_MS = 200;
/**
 * Pages past which a writer connection still checkpoints itself (about 40 MB at 4 KiB pages): reached
 * only when the worker is not running (another process without one) or cannot keep up.
 */
export const SAFETY_NET_PAGES = 10_000;

// Plain CommonJS, run as the worker's script: only better-sqlite3, resolved by the parent.
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const connection = new Database(workerData.file, { timeout: 5000, fileMustExist: true });
setInterval(() => {
  try {
    connection.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // Busy or locked: the next turn tries again; the writers' safety net bounds the log meanwhile.
  }
}, workerData.everyMs);
`;

/**
 * Starts the process's checkpointing thread for `file` (once per file); false where none could be
 * started (the caller's connections then keep checkpointing themselves).
 */
export function startWalCheckpointer(file: string): boolean {
  return processSingleton(`db.walCheckpointer:${path.resolve(file)}`, () => {
    try {
      const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { file: path.resolve(file), driver, everyMs: CHECKPOINT_EVERY_MS },
      });
      // It must not keep a finished process (a test, the CLI) alive.
      worker.unref();
      worker.on("error", (error) => log.warn("wal_checkpointer_stopped", { error: error.message }));
      return true;
    } catch (error) {
      log.warn("wal_checkpointer_unavailable", { error: (error as Error).message });
      return false;
    }
  });
}

const enabled = () => processSlot<boolean>("db.walCheckpointsEnabled");

/** Called once when a server process starts: its SQLite connections opened from now on leave checkpoints to the thread. */
export function enableWalCheckpoints(): void {
  enabled().current = true;
}

/**
 * The pragma a writer connection runs when it opens: in a server process, the safety net (and the
 * thread is started for its file); elsewhere nothing, SQLite's default.
 */
export function autocheckpointPragma(file: string): string {
  return enabled().current && startWalCheckpointer(file) ? `PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES};` : "";
}
