import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "./scratch-database";
import { directTransactionContract } from "./direct-transaction.contract";

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
      Number(((await client.$queryRaw`SELECT "issued" FROM "MonthlyUsage" WHERE "organizationId" = ${"org_t"} AND "month" = ${"2030-01"}`) as { issued: unknown }[])[0]!.issued);
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
        await tx.monthlyUsage.update({ where: { organizationId_month: { organizationId: "org_t", month: "2030-01" } }, data: { issued: issued + 1 } });
      });
    const plain = () => db().monthlyUsage.count();
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? direct() : i % 3 === 1 ? viaPrisma() : plain())));
    expect(await read(db())).toBe(20);
  });
});
