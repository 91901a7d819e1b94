import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";
import type { SqlClient } from "./index";
import { directTransactionContract, insertGroup, shortenTransactionLimits } from "../../test/support/db/direct-transaction.contract";

await scratchDatabase("direct-tx");

const { db } = await import("./index");
const { directTransaction } = await import("./direct-transaction");

beforeAll(async () => {
  await db().organization.create({ data: { id: "org_t", slug: "t", name: "T" } });
});

directTransactionContract(() => ({ db: db(), directTransaction }));

describe("directTransaction on SQLite", () => {
  it("takes turns with the Prisma client's transactions and plain queries of the process (one writer, no deadlock)", async () => {
    // Each side reads the counter and writes it back one higher after a pause: without one lock for
    // both connections, updates would be lost or SQLite would refuse one with SQLITE_BUSY.
    await db().monthlyUsage.create({ data: { organizationId: "org_t", month: "2030-01", issued: 0 } });
    const read = async (client: { $queryRaw: (q: TemplateStringsArray, ...v: unknown[]) => PromiseLike<unknown> }) =>
      Number(
        (
          (await client.$queryRaw`SELECT "issued" FROM "MonthlyUsage" WHERE "organizationId" = ${"org_t"} AND "month" = ${"2030-01"}`) as {
            issued: unknown;
          }[]
        )[0]!.issued,
      );
    const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
    const direct = () =>
      directTransaction(async (tx) => {
        const issued = await read(tx);
        await pause();
        await tx.$executeRaw`UPDATE "MonthlyUsage" SET "issued" = ${issued + 1} WHERE "organizationId" = ${"org_t"} AND "month" = ${"2030-01"}`;
      });
    const viaPrisma = () =>
      db().$transaction(async (tx) => {
        const issued = await read(tx);
        await pause();
        await tx.monthlyUsage.update({
          where: { organizationId_month: { organizationId: "org_t", month: "2030-01" } },
          data: { issued: issued + 1 },
        });
      });
    const plain = () => db().monthlyUsage.count();
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? direct() : i % 3 === 1 ? viaPrisma() : plain())));
    expect(await read(db())).toBe(20);
  });

  it("waits a limited time for the lock (503, nothing written), and a db() call inside the work ends at the deadline instead of hanging", async () => {
    shortenTransactionLimits();
    const insert = (id: string) => (tx: SqlClient) => insertGroup(tx, id, "g");
    // A Prisma transaction holds the process's lock for 600 ms.
    const holding = db().$transaction(async (tx) => {
      await insert("grp_held")(tx);
      await new Promise((resolve) => setTimeout(resolve, 600));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(directTransaction(insert("grp_waited"))).rejects.toMatchObject({ code: "service_unavailable" });
    await holding;
    // The mistake the comment warns about: db() inside the work waits for the lock the work holds.
    const nested = await directTransaction(async (tx) => {
      await insert("grp_nested")(tx);
      await db().group.count();
      return "finished";
    }).catch((error: unknown) => error);
    expect(nested).toMatchObject({ code: "service_unavailable" });
    expect(await db().group.findMany({ where: { id: { in: ["grp_held", "grp_waited", "grp_nested"] } }, select: { id: true } })).toEqual([
      { id: "grp_held" },
    ]);
  });
});
