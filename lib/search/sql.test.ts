import { describe, expect, it } from "vitest";
import { parseFilter, type FilterNode } from "./filter";
import { filterSql, hasRecipientSubstring, rareSubstringCount, type SqlContext } from "./sql";

const tree = (filter: unknown): FilterNode => {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error("bad filter in test");
  return parsed.tree;
};
const sqlite: SqlContext = { organizationId: "org_1", today: "2026-01-01", engine: "sqlite" };

describe("recipient substrings", () => {
  it("are found anywhere in the tree, and only contains/startsWith/endsWith on name or email count", () => {
    expect(hasRecipientSubstring(tree({ "recipient.name": { contains: "ada" } }))).toBe(true);
    expect(hasRecipientSubstring(tree({ NOT: { OR: [{ status: "draft" }, { "recipient.email": { endsWith: "@x.org" } }] } }))).toBe(true);
    expect(hasRecipientSubstring(tree({ "recipient.email": "ada@example.com", status: "issued" }))).toBe(false);
  });

  it("compare on the joined recipient row in the windowed probe, with no trigram lookup", () => {
    const joined = filterSql(tree({ "recipient.name": { contains: "lov" } }), { ...sqlite, recipientJoined: true });
    expect(joined.sql).toContain(`r."nameNormalized" LIKE`);
    expect(joined.sql).not.toContain("RecipientText");
    const lookedUp = filterSql(tree({ "recipient.name": { contains: "lov" } }), sqlite);
    expect(lookedUp.sql).toContain("RecipientText");
  });

  it("are counted only when required by the top-level AND: in the FTS5 indexes on SQLite, the organization's recipients on PostgreSQL", () => {
    const count = rareSubstringCount(tree({ status: "issued", "recipient.email": { contains: 'a"b' } }), sqlite, 300);
    expect(count?.count.sql).toContain("LIMIT");
    expect(count?.count.values).toEqual([`{emailNormalized} : "a""b"`, 300]);
    expect(count?.condition).toMatchObject({ field: "recipient.email", op: "contains", value: 'a"b' });
    const short = rareSubstringCount(tree({ "recipient.name": { contains: "田中" } }), sqlite, 300);
    expect(short?.count.sql).toContain(`"RecipientGram" MATCH`);
    const org = Buffer.from(sqlite.organizationId).toString("hex");
    expect(short?.count.values).toEqual([`o${org}n2e794b0e4b8ad OR o${org}nzz`, 300]);
    expect(rareSubstringCount(tree({ "recipient.name": { contains: "" } }), sqlite, 300)).toBeNull();
    expect(rareSubstringCount(tree({ OR: [{ "recipient.name": { contains: "abc" } }, { status: "draft" }] }), sqlite, 300)).toBeNull();
    const postgres = { ...sqlite, engine: "postgresql" as const };
    const pg = rareSubstringCount(tree({ "recipient.name": { startsWith: "ros%" } }), postgres, 300);
    expect(pg?.count.sql).toContain(`r2."organizationId" = `);
    expect(pg?.count.values).toEqual([sqlite.organizationId, "ros\\%%", 300]);
    const pgShort = rareSubstringCount(tree({ "recipient.email": { endsWith: "%" } }), postgres, 300);
    expect(pgShort?.count.text).toContain(`r2."emailGrams" @> ARRAY[$2::text]`);
    expect(pgShort?.count.values).toEqual([sqlite.organizationId, "%", "%\\%", 300]);
    expect(rareSubstringCount(tree({ NOT: { "recipient.name": { contains: "abc" } } }), postgres, 300)).toBeNull();
  });

  it("a rare required substring on PostgreSQL looks its recipients up first; the condition elsewhere keeps the IN form", () => {
    const postgres = { ...sqlite, engine: "postgresql" as const };
    const t = tree({
      AND: [{ "recipient.name": { startsWith: "rosa m" } }, { OR: [{ "recipient.email": { contains: "abc" } }, { status: "draft" }] }],
    });
    const rare = rareSubstringCount(t, postgres, 300)!.condition;
    const text = filterSql(t, { ...postgres, recipientsFirst: rare }).sql;
    expect(text.match(/= ANY\(ARRAY\(SELECT r2\."id"/g)).toHaveLength(1);
    expect(text).toContain(`c."recipientId" IN (SELECT r2."id"`);
  });
});
