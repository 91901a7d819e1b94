// Another process writing to an app database, as an operator's CLI or a second server would: renames
// organization `demo` back to back. Prints "ready" after its first write, keeps writing until its stdin
// closes (at most 30 s), then prints the number of writes.
//   node e2e/support/concurrent-writer.mjs <DATABASE_URL>
import Database from "better-sqlite3";
import pg from "pg";

const [url] = process.argv.slice(2);
let running = true;
process.stdin.on("end", () => (running = false));
process.stdin.on("error", () => (running = false));
process.stdin.resume();
setTimeout(() => (running = false), 30_000).unref();

const tick = () => new Promise((r) => setImmediate(r)); // lets the stdin "end" event in
let writes = 0;
if (url.startsWith("file:")) {
  const conn = new Database(url.slice("file:".length));
  // No busy handler: SQLite's would sleep for growing intervals while the server writes, and the point
  // is to commit again the moment the server's write lock is released.
  conn.pragma("busy_timeout = 0");
  const update = conn.prepare(`UPDATE "Organization" SET "name" = ? WHERE "slug" = 'demo'`);
  const write = () => {
    try {
      update.run(`Demo ${writes}`);
      writes++;
    } catch (error) {
      if (error?.code !== "SQLITE_BUSY") throw error;
    }
  };
  while (writes === 0) write();
  process.stdout.write("ready\n");
  while (running) {
    for (let i = 0; i < 50; i++) write();
    await tick();
  }
  conn.close();
} else {
  const conn = new pg.Client({ connectionString: url });
  await conn.connect();
  const update = (n) => conn.query(`UPDATE "Organization" SET "name" = $1 WHERE "slug" = 'demo'`, [`Demo ${n}`]);
  await update(writes++);
  process.stdout.write("ready\n");
  while (running) await update(writes++);
  await conn.end();
}
process.stdout.write(`${writes}\n`);
