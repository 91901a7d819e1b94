import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../../test/support/db/scratch-database";
import { applyMigrations, readMigrations } from "./migrate";

function project(migrations: Record<string, string>): string {
  const root = scratchFolder("migrate");
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(path.join(root, "prisma/migrations", name), { recursive: true });
    writeFileSync(path.join(root, "prisma/migrations", name, "migration.sql"), sql);
  }
  return root;
}

describe("applyMigrations (SQLite)", () => {
  it("applies pending migrations in order, once", async () => {
    const root = project({ "002_b": `ALTER TABLE "t" ADD COLUMN "b" TEXT;`, "001_a": `CREATE TABLE "t" ("a" TEXT);` });
    const url = `file:${path.join(root, "data/db.sqlite")}`;
    expect(await applyMigrations(url, root)).toEqual(["001_a", "002_b"]);
    expect(await applyMigrations(url, root)).toEqual([]);
    const conn = new Database(path.join(root, "data/db.sqlite"));
    expect(conn.prepare(`SELECT name FROM pragma_table_info('t')`).all()).toEqual([{ name: "a" }, { name: "b" }]);
    conn.close();
  });

  it("applies nothing when one migration fails", async () => {
    const root = project({ "001_a": `CREATE TABLE "t" ("a" TEXT);`, "002_bad": `ALTER TABLE "missing" ADD COLUMN "x" TEXT;` });
    const url = `file:${path.join(root, "db.sqlite")}`;
    await expect(applyMigrations(url, root)).rejects.toThrow();
    const conn = new Database(path.join(root, "db.sqlite"));
    expect(conn.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 't'`).get()).toEqual({ n: 0 });
    conn.close();
  });

  it("refuses a migration edited after it was applied", async () => {
    const root = project({ "001_a": `CREATE TABLE "t" ("a" TEXT);` });
    const url = `file:${path.join(root, "db.sqlite")}`;
    await applyMigrations(url, root);
    writeFileSync(path.join(root, "prisma/migrations/001_a/migration.sql"), `CREATE TABLE "t" ("z" TEXT);`);
    await expect(applyMigrations(url, root)).rejects.toThrow(/changed after it was applied/);
  });

  it("the project's own migrations apply to an empty database", async () => {
    expect(readMigrations("prisma/migrations").length).toBeGreaterThan(0);
    expect(readMigrations("prisma/postgres/migrations").map((m) => m.name)).toEqual(readMigrations("prisma/migrations").map((m) => m.name));
    const dir = scratchFolder("migrate-real");
    expect((await applyMigrations(`file:${dir}/db.sqlite`)).length).toBeGreaterThan(0);
  });
});
