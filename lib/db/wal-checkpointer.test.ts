import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONNECTION_PRAGMAS } from "./serialized-sqlite-adapter";
import { autocheckpointPragma, enableWalCheckpoints, SAFETY_NET_PAGES } from "./wal-checkpointer";

const dir = mkdtempSync(path.join(tmpdir(), "cis-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the WAL checkpointing thread", () => {
  it("copies committed pages into the database file while the writer's own checkpoints wait for the safety net", async () => {
    const file = path.join(dir, "wal.db");
    const writer = new Database(file);
    writer.exec(CONNECTION_PRAGMAS);
    // Outside a server process connections keep SQLite's default.
    expect(autocheckpointPragma(file)).toBe("");
    enableWalCheckpoints();
    const pragma = autocheckpointPragma(file);
    expect(pragma).toBe(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES};`);
    writer.exec(pragma);
    expect(writer.pragma("wal_autocheckpoint", { simple: true })).toBe(SAFETY_NET_PAGES);
    writer.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
    const insert = writer.prepare("INSERT INTO t (body) VALUES (?)");
    // About 2,000 pages (8 MB): past SQLite's default of 1,000, below the safety net, so the writer
    // does not checkpoint itself and only the thread can have copied them into the file.
    for (let i = 0; i < 200; i++) writer.transaction(() => insert.run("x".repeat(40_000)))();
    const deadline = Date.now() + 10_000;
    while (statSync(file).size < 6_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(file).size).toBeGreaterThan(6_000_000);
    // Nothing was lost on the way: a new connection reads every row.
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 200 });
    reader.close();
    writer.close();
  });
});
