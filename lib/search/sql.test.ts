import { describe, expect, it } from "vitest";
import { parseFilter, type FilterNode } from "./filter";
import { filterSql, hasRecipientSubstring, trigramCandidateCount, type SqlContext } from "./sql";

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

  it("are counted in the trigram index only when required by the top-level AND, 3 characters or more, on SQLite", () => {
    const count = trigramCandidateCount(tree({ status: "issued", "recipient.email": { contains: 'a"b' } }), sqlite, 300);
    expect(count?.sql).toContain("LIMIT");
    expect(count?.values).toEqual([`{emailNormalized} : "a""b"`, 300]);
    expect(trigramCandidateCount(tree({ "recipient.name": { contains: "ab" } }), sqlite, 300)).toBeNull();
    expect(trigramCandidateCount(tree({ OR: [{ "recipient.name": { contains: "abc" } }, { status: "draft" }] }), sqlite, 300)).toBeNull();
    expect(trigramCandidateCount(tree({ "recipient.name": { contains: "abc" } }), { ...sqlite, engine: "postgresql" }, 300)).toBeNull();
  });
});
