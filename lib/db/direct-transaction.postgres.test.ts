// directTransaction on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI starts one), on a
// scratch database of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directTransactionContract, insertGroup } from "../../test/support/db/direct-transaction.contract";
import type { Db, SqlClient } from "./index";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("on PostgreSQL", () => {
  let subject: { db: Db; directTransaction: <T>(work: (tx: SqlClient) => Promise<T>) => Promise<T> };
  let finish: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    finish = (await postgresTestDatabase(serverUrl!, "cis_unit_direct_tx")).finish;
    const { db } = await import("./index");
    const { directTransaction } = await import("./direct-transaction");
    subject = { db: db(), directTransaction };
    await db().organization.create({ data: { id: "org_t", slug: "t", name: "T" } });
  });

  afterAll(() => finish());

  directTransactionContract(() => subject);

  it("a connection the server ends mid-transaction fails that transaction, not the process; the next one runs", async () => {
    const failed = await subject
      .directTransaction(async (tx) => {
        await insertGroup(tx, "grp_k", "k");
        await tx.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`;
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await subject.db.group.count({ where: { id: "grp_k" } })).toBe(0);
    await subject.directTransaction((tx) => tx.$executeRaw`UPDATE "Organization" SET "name" = ${"T2"} WHERE "id" = ${"org_t"}`);
    expect((await subject.db.organization.findUniqueOrThrow({ where: { id: "org_t" } })).name).toBe("T2");
  });
});
