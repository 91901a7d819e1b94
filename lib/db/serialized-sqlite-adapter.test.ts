import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../../test/support/db/scratch-database";
import { createDb } from "./index";
import { applyMigrations } from "./migrate";
import { ConnectionLock } from "./serialized-sqlite-adapter";

describe("ConnectionLock", () => {
  it("runs work one at a time, in arrival order", async () => {
    const lock = new ConnectionLock();
    const events: string[] = [];
    const job = (name: string, ms: number) =>
      lock.run(async () => {
        events.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        events.push(`end ${name}`);
      });
    await Promise.all([job("a", 20), job("b", 1), job("c", 1)]);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });
});

describe("the SQLite client", () => {
  it("keeps a plain write made during another request's transaction when that transaction rolls back", async () => {
    const dir = scratchFolder("sqlite-iso");
    const url = `file:${dir}/db.sqlite`;
    await applyMigrations(url);
    const db = createDb(url);
    await db.organization.count(); // connect
    let release!: () => void;
    let entered!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    const inside = new Promise<void>((r) => (entered = r));
    const tx = db
      .$transaction(async (t) => {
        await t.organization.create({ data: { id: "org_tx", slug: "in-tx", name: "tx" } });
        entered();
        await holding;
        throw new Error("roll back");
      })
      .catch(() => "rolled back");
    await inside;
    // A single statement outside any transaction (Prisma wraps some writes in their own transaction).
    // Prisma's promises are lazy: `.then` starts it now.
    const plain = db
      .$executeRawUnsafe(
        `INSERT INTO "Organization" ("id", "slug", "name", "updatedAt") VALUES ('org_plain', 'plain', 'plain', '2026-01-01T00:00:00.000Z')`,
      )
      .then((n) => n);
    // Give the plain statement time to run; with a shared, unguarded connection it would run inside
    // the open transaction now and be rolled back with it.
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await tx).toBe("rolled back");
    await plain;
    expect((await db.organization.findMany({ select: { slug: true } })).map((o) => o.slug)).toEqual(["plain"]);
    await db.$disconnect();
  });
});

describe("SQLite transactions and other processes", () => {
  it("a transaction that reads, then writes, survives another connection writing in between", async () => {
    const dir = scratchFolder("sqlite-busy");
    const url = `file:${dir}/db.sqlite`;
    await applyMigrations(url);
    const db = createDb(url);
    await db.organization.create({ data: { id: "org_a", slug: "a", name: "a" } });
    // Another process, e.g. the CLI (a second connection that does not wait for locks).
    const other = new Database(`${dir}/db.sqlite`, { timeout: 0 });
    let otherWrote: boolean | undefined;
    await db.$transaction(async (tx) => {
      await tx.organization.findUnique({ where: { id: "org_a" } });
      try {
        other.prepare(`UPDATE "Organization" SET "name" = 'other' WHERE "id" = 'org_a'`).run();
        otherWrote = true;
      } catch {
        otherWrote = false; // the transaction holds the write lock from its start
      }
      await tx.organization.update({ where: { id: "org_a" }, data: { name: "tx" } });
    });
    expect(otherWrote).toBe(false);
    expect((await db.organization.findUnique({ where: { id: "org_a" } }))!.name).toBe("tx");
    other.close();
    await db.$disconnect();
  });
});
