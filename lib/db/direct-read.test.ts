import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("direct-read");

const { db } = await import("./index");
const { directQuery, directRows, preparedNameOf, readVia } = await import("./direct-read");
const { Prisma } = await import("../generated/sqlite/client");
const { rawBoolean, rawDate, rawNullableInt } = await import("./raw-values");

type GroupRow = {
  id: string;
  name: string;
  legacyDesignShape: unknown;
  expiryAmount: unknown;
  createdAt: unknown;
  learningEventUrl: string | null;
};

const readGroup = (id: string) =>
  directRows<GroupRow>`SELECT "id", "name", "legacyDesignShape", "expiryAmount", "createdAt", "learningEventUrl" FROM "Group" WHERE "id" = ${id}`;

beforeAll(async () => {
  await db().organization.create({ data: { id: "org_d", slug: "d", name: "D" } });
});

describe("directRows (reads past the Prisma client, on a connection of their own)", () => {
  it("sees what the Prisma client committed, with values that read back as Prisma's own", async () => {
    const createdAt = new Date("2026-01-02T03:04:05.678Z");
    await db().group.create({
      data: {
        id: "grp_a",
        organizationId: "org_d",
        name: 'A \' "quoted"',
        legacyDesignShape: true,
        expiryAmount: 3,
        expiryUnit: "year",
        createdAt,
      },
    });
    const [row] = await readGroup("grp_a");
    expect(row).toBeDefined();
    expect(row!.name).toBe('A \' "quoted"');
    expect(rawBoolean(row!.legacyDesignShape)).toBe(true);
    expect(rawNullableInt(row!.expiryAmount)).toBe(3);
    expect(rawDate(row!.createdAt).toISOString()).toBe(createdAt.toISOString());
    expect(row!.learningEventUrl).toBeNull();
    expect(await readGroup("grp_missing")).toEqual([]);
  });

  it("sees a transaction's writes once it commits, not before; readVia(tx) sees them inside it", async () => {
    let insideDirect: unknown[] = ["not read"];
    let insideTx: unknown[] = [];
    await db().$transaction(async (tx) => {
      await tx.group.create({ data: { id: "grp_b", organizationId: "org_d", name: "B" } });
      insideDirect = await readGroup("grp_b");
      insideTx = await readVia(tx)<{ id: string }>`SELECT "id" FROM "Group" WHERE "id" = ${"grp_b"}`;
    });
    expect(insideDirect).toEqual([]);
    expect(insideTx).toEqual([{ id: "grp_b" }]);
    expect((await readGroup("grp_b")).map((r) => r.id)).toEqual(["grp_b"]);
  });

  it("sees a change and a delete at once (no stale cached answer)", async () => {
    await db().group.update({ where: { id: "grp_b" }, data: { name: "B2" } });
    expect((await readGroup("grp_b"))[0]!.name).toBe("B2");
    await db().group.delete({ where: { id: "grp_b" } });
    expect(await readGroup("grp_b")).toEqual([]);
  });

  it("refuses to write", async () => {
    await expect(directRows`DELETE FROM "Group" WHERE "id" = ${"grp_a"} RETURNING "id"`).rejects.toThrow(
      /readonly|query_only|attempt to write/i,
    );
    expect(await readGroup("grp_a")).toHaveLength(1);
  });
});

describe("directQuery's prepared statement names (PostgreSQL plans a named statement once per connection)", () => {
  it("reads like directRows, prepared or not", async () => {
    for (const prepared of [false, true]) {
      const rows = await directQuery<{ id: string }>(Prisma.sql`SELECT "id" FROM "Group" WHERE "id" = ${"grp_a"}`, { prepared });
      expect(rows).toEqual([{ id: "grp_a" }]);
    }
  });

  it("names one text one way, two texts two ways, and stops naming new texts past its bound", () => {
    const first = preparedNameOf('SELECT 1 AS "named"');
    expect(first).toMatch(/^cis_[\w-]{24}$/);
    expect(preparedNameOf('SELECT 1 AS "named"')).toBe(first);
    expect(preparedNameOf('SELECT 2 AS "named"')).not.toBe(first);
    const names = Array.from({ length: 60 }, (_, i) => preparedNameOf(`SELECT ${i + 10} AS "many"`));
    expect(names.filter((n) => n === undefined).length).toBeGreaterThan(0);
    expect(preparedNameOf('SELECT 1 AS "named"')).toBe(first);
  });
});
