// What directTransaction promises on either engine; lib/db/direct-transaction.test.ts runs it on SQLite and
// direct-transaction.postgres.test.ts on PostgreSQL. Expects an organization `org_t`.
import { describe, expect, it, onTestFinished } from "vitest";
import { Prisma } from "../../../lib/generated/sqlite/client";
import { isForeignKeyViolation } from "../../../lib/db/constraint-errors";
import { TRANSACTION_OPTIONS, type Db, type SqlClient } from "../../../lib/db";
import { rawDate } from "../../../lib/db/raw-values";

type Subject = { db: Db; directTransaction: <T>(work: (tx: SqlClient) => Promise<T>) => Promise<T> };

/** Inserts a group of `org_t` (or `organizationId`) through `tx`. */
export const insertGroup = (tx: SqlClient, id: string, name: string, organizationId = "org_t") => tx.$executeRaw`
  INSERT INTO "Group" ("id", "organizationId", "name", "legacyDesignShape", "createdAt", "updatedAt")
  VALUES (${id}, ${organizationId}, ${name}, ${true}, ${new Date("2026-02-03T04:05:06.789Z")}, ${new Date("2026-02-03T04:05:06.789Z")})`;

export function directTransactionContract(subject: () => Subject) {
  describe("directTransaction (a transaction past the Prisma client)", () => {
    it("commits every statement, with values the Prisma client reads back as its own", async () => {
      const { db, directTransaction } = subject();
      const answer = await directTransaction(async (tx) => {
        expect(await insertGroup(tx, "grp_c1", 'O\'Brien "quoted" 田中 👩‍🔬')).toBe(1);
        // RETURNING rows, and a statement assembled from fragments.
        const rows = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
          UPDATE "Group" SET "expiryAmount" = ${3}, "expiryUnit" = ${"year"}
          WHERE "id" IN (${Prisma.join(["grp_c1", "grp_none"])}) RETURNING "id"`);
        return rows.map((r) => r.id);
      });
      expect(answer).toEqual(["grp_c1"]);
      const group = await db.group.findUniqueOrThrow({ where: { id: "grp_c1" } });
      expect(group).toMatchObject({
        name: 'O\'Brien "quoted" 田中 👩‍🔬',
        legacyDesignShape: true,
        expiryAmount: 3,
        expiryUnit: "year",
        learningEventUrl: null,
      });
      expect(group.createdAt.toISOString()).toBe("2026-02-03T04:05:06.789Z");
      // A timestamp the Prisma client wrote compares equal to the same instant bound here.
      const [found] = await subject().directTransaction(
        (tx) => tx.$queryRaw<{ createdAt: unknown }[]>`
        SELECT "createdAt" FROM "Group" WHERE "createdAt" = ${group.createdAt} AND "id" = ${"grp_c1"}`,
      );
      expect(rawDate(found!.createdAt).toISOString()).toBe("2026-02-03T04:05:06.789Z");
    });

    it("sees its own writes inside; nothing is visible outside before it commits", async () => {
      const { db, directTransaction } = subject();
      let outside: unknown = "not read";
      await directTransaction(async (tx) => {
        await insertGroup(tx, "grp_c2", "two");
        expect(await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Group" WHERE "id" = ${"grp_c2"}`).toEqual([{ id: "grp_c2" }]);
        const { directRows } = await import("../../../lib/db/direct-read");
        outside = await directRows`SELECT "id" FROM "Group" WHERE "id" = ${"grp_c2"}`;
      });
      expect(outside).toEqual([]);
      expect(await db.group.count({ where: { id: "grp_c2" } })).toBe(1);
    });

    it("rolls everything back when the work throws, and passes the error on", async () => {
      const { db, directTransaction } = subject();
      const failure = new Error("refused by a rule");
      await expect(
        directTransaction(async (tx) => {
          await insertGroup(tx, "grp_c3", "three");
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await db.group.count({ where: { id: "grp_c3" } })).toBe(0);
    });

    it("rolls back the earlier statements when one fails, with an error the callers recognise; the next transaction runs", async () => {
      const { db, directTransaction } = subject();
      const failed = await directTransaction(async (tx) => {
        await insertGroup(tx, "grp_c4", "four");
        await insertGroup(tx, "grp_c5", "five", "org_missing");
      }).catch((error: unknown) => error);
      expect(isForeignKeyViolation(failed)).toBe(true);
      expect(await db.group.count({ where: { id: { in: ["grp_c4", "grp_c5"] } } })).toBe(0);
      await directTransaction((tx) => insertGroup(tx, "grp_c6", "six"));
      expect(await db.group.count({ where: { id: "grp_c6" } })).toBe(1);
    });

    it("rolls back a transaction that runs past its time, refuses its later statements and answers 503; the next one runs", async () => {
      const { db, directTransaction } = subject();
      shortenTransactionLimits();
      let late: unknown = "not tried";
      const outcome = await directTransaction(async (tx) => {
        await insertGroup(tx, "grp_c7", "seven");
        await new Promise((resolve) => setTimeout(resolve, 600));
        late = await insertGroup(tx, "grp_c8", "eight").catch((error: unknown) => error);
        return "returned";
      }).catch((error: unknown) => error);
      expect(outcome).toMatchObject({ code: "service_unavailable", headers: { "Retry-After": "5" } });
      expect(late).toMatchObject({ code: "service_unavailable" });
      expect(await db.group.count({ where: { id: { in: ["grp_c7", "grp_c8"] } } })).toBe(0);
      await directTransaction((tx) => insertGroup(tx, "grp_c9", "nine"));
      expect(await db.group.count({ where: { id: "grp_c9" } })).toBe(1);
    });
  });
}

/** Limits of a fraction of a second for one test (the real ones are 15 s to wait and 20 s to run). */
export function shortenTransactionLimits() {
  const { maxWait, timeout } = TRANSACTION_OPTIONS;
  TRANSACTION_OPTIONS.maxWait = 200;
  TRANSACTION_OPTIONS.timeout = 300;
  onTestFinished(() => {
    Object.assign(TRANSACTION_OPTIONS, { maxWait, timeout });
  });
}
