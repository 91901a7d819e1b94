// What the recipient text indexes must do on either engine (lib/search/text-index.test.ts on SQLite,
// lib/search/text-index.postgres.test.ts on PostgreSQL): for every needle, the candidates an index gives include
// every recipient whose value contains it, through inserts, upserts, updates and deletes by any writer;
// and a needle nobody's value contains gets no candidate, so the index really narrows.
import { expect, it } from "vitest";
import type { Db } from "../../../lib/db";
import { Prisma } from "../../../lib/generated/sqlite/client";
import { findOrCreateRecipient, normalizeName } from "../../../lib/recipients/service";
import { substringCandidates, type TextField } from "../../../lib/search/text-index";

const NAMES = ["田中 太郎", "Zoë Müller", "q", "O'Brien_%", "😀x", "ＡＢＣ", "İstanbul", "Ab", "ﷺ"];
const ABSENT = ["zz", "qx", "é", "😃", "%%", "_b"];

function substrings(value: string, length: number): string[] {
  const chars = [...value];
  return chars.slice(0, chars.length - length + 1).map((_, i) => chars.slice(i, i + length).join(""));
}

export function textIndexContract(
  subject: () => { db: Db; engine: "sqlite" | "postgresql"; organizationId: string; otherOrganizationId: string },
) {
  const FIELD_COLUMN = { "recipient.name": "nameNormalized", "recipient.email": "emailNormalized" } as const;

  async function candidates(field: TextField, needle: string, organizationId = subject().organizationId): Promise<Set<string>> {
    const { db, engine } = subject();
    const condition = substringCandidates(field, needle, engine, "r2", organizationId);
    if (!condition) throw new Error(`no index lookup for ${JSON.stringify(needle)}`);
    const rows = await db.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT r2."id" FROM "Recipient" r2 WHERE r2."organizationId" = ${organizationId} AND ${condition}`,
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Every recipient whose normalized field holds each 1- and 2-character piece of it is a candidate for that piece. */
  async function expectComplete(field: TextField): Promise<number> {
    const { db, organizationId } = subject();
    const column = FIELD_COLUMN[field];
    const rows = await db.$queryRaw<{ id: string; value: string }[]>(
      Prisma.sql`SELECT "id", ${Prisma.raw(`"${column}"`)} AS "value" FROM "Recipient" WHERE "organizationId" = ${organizationId}`,
    );
    let checked = 0;
    const needles = new Set(rows.flatMap((r) => [...substrings(r.value, 1), ...substrings(r.value, 2)]));
    for (const needle of needles) {
      const found = await candidates(field, needle);
      for (const row of rows) {
        if (row.value.includes(needle))
          expect(found.has(row.id), `${field} ${JSON.stringify(needle)} must find ${JSON.stringify(row.value.slice(0, 40))}`).toBe(true);
      }
      checked++;
    }
    return checked;
  }

  it("finds every recipient holding a needle of 1 or 2 characters, non-ASCII, astral and LIKE's own characters included", async () => {
    const { db, organizationId } = subject();
    for (const [i, name] of NAMES.entries())
      await findOrCreateRecipient(db, organizationId, { name, email: `Person.${i}+tag@Example.org` });
    expect(await expectComplete("recipient.name")).toBeGreaterThan(40);
    expect(await expectComplete("recipient.email")).toBeGreaterThan(30);
    // The normalized forms are what is indexed: "ＡＢＣ" is found as "abc", "ﷺ" as its 18 characters.
    expect((await candidates("recipient.name", "ab")).size).toBe(2);
    expect((await candidates("recipient.name", normalizeName("ﷺ").slice(0, 2))).size).toBe(1);
  });

  it("gives another organization's recipients as candidates to that organization only", async () => {
    const { db, organizationId, otherOrganizationId } = subject();
    const other = await findOrCreateRecipient(db, otherOrganizationId, { name: "Xiè Qíng", email: "xq@other.example" });
    expect(await candidates("recipient.name", "è", otherOrganizationId)).toEqual(new Set([other.id]));
    expect(await candidates("recipient.name", "è")).toEqual(new Set());
    // A recipient moved to another organization by raw SQL moves in the index too.
    await db.$executeRaw`UPDATE "Recipient" SET "organizationId" = ${organizationId} WHERE "id" = ${other.id}`;
    expect(await candidates("recipient.name", "è")).toEqual(new Set([other.id]));
    expect(await candidates("recipient.name", "è", otherOrganizationId)).toEqual(new Set());
    await db.$executeRaw`DELETE FROM "Recipient" WHERE "id" = ${other.id}`;
  });

  it("gives no candidate for a needle nobody's value contains", async () => {
    for (const needle of ABSENT) {
      expect([...(await candidates("recipient.name", needle))], needle).toEqual([]);
      expect([...(await candidates("recipient.email", needle))], needle).toEqual([]);
    }
  });

  it("follows updates and deletes made by any writer, and a recreated recipient's upsert", async () => {
    const { db, organizationId } = subject();
    const kept = await findOrCreateRecipient(db, organizationId, { name: "Wanda Kowalska", email: "wk@x.example" });
    // The upsert that finds an existing recipient assigns its email to itself: the index keeps it.
    await findOrCreateRecipient(db, organizationId, { name: "ignored", email: "WK@x.example" });
    expect((await candidates("recipient.name", "wk")).size).toBe(0);
    expect(await candidates("recipient.name", "wa")).toEqual(new Set([kept.id]));

    await db.$executeRaw`UPDATE "Recipient" SET "name" = 'Ülkü Yıldız', "nameNormalized" = 'ülkü yıldız' WHERE "id" = ${kept.id}`;
    expect(await candidates("recipient.name", "wa")).toEqual(new Set());
    expect(await candidates("recipient.name", "kü")).toEqual(new Set([kept.id]));
    expect(await candidates("recipient.name", "ı")).toEqual(new Set([kept.id]));
    expect(await candidates("recipient.email", "wk")).toEqual(new Set([kept.id]));

    await db.$executeRaw`UPDATE "Recipient" SET "emailNormalized" = 'new@x.example' WHERE "id" = ${kept.id}`;
    expect(await candidates("recipient.email", "wk")).toEqual(new Set());
    expect(await candidates("recipient.email", "ne")).toEqual(new Set([kept.id]));
    expect(await candidates("recipient.name", "kü")).toEqual(new Set([kept.id]));

    await db.$executeRaw`DELETE FROM "Recipient" WHERE "id" = ${kept.id}`;
    expect(await candidates("recipient.name", "kü")).toEqual(new Set());
    expect(await candidates("recipient.email", "ne")).toEqual(new Set());
  });

  it("finds a needle at the end of a value longer than anything the API accepts", async () => {
    const { db, organizationId } = subject();
    const long = await findOrCreateRecipient(db, organizationId, { name: "Placeholder", email: "long@x.example" });
    // SQLite indexes the first 256 characters and marks longer values as candidates for every needle.
    for (const value of ["x".repeat(254) + "ʒq", "x".repeat(255) + "ʒq", "x".repeat(9000) + "ʒq"]) {
      await db.$executeRaw`UPDATE "Recipient" SET "nameNormalized" = ${value} WHERE "id" = ${long.id}`;
      expect((await candidates("recipient.name", "ʒq")).has(long.id), `${value.length} characters`).toBe(true);
      expect((await candidates("recipient.name", "q")).has(long.id), `${value.length} characters`).toBe(true);
    }
    await db.$executeRaw`DELETE FROM "Recipient" WHERE "id" = ${long.id}`;
    expect((await candidates("recipient.name", "ʒq")).has(long.id)).toBe(false);
  });
}
