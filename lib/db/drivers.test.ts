import { describe, expect, it } from "vitest";
import { Prisma } from "../generated/sqlite/client";
import { statementOf, textsOf } from "./drivers";

const tag = (strings: TemplateStringsArray, ..._values: unknown[]) => strings;

describe("statement texts", () => {
  it("writes placeholders per engine and names a call site's statement by its text alone", () => {
    const a = textsOf(tag`SELECT "id" FROM "Group" WHERE "id" = ${1} AND "organizationId" = ${2}`);
    expect(a.sqlite).toBe('SELECT "id" FROM "Group" WHERE "id" = ? AND "organizationId" = ?');
    expect(a.postgres).toBe('SELECT "id" FROM "Group" WHERE "id" = $1 AND "organizationId" = $2');
    // Another copy of the module (Next loads several into one process) must name the same text the
    // same, and a different text differently: the name is per connection of a pool they share.
    const sameText = textsOf(tag`SELECT "id" FROM "Group" WHERE "id" = ${3} AND "organizationId" = ${4}`);
    const otherText = textsOf(tag`SELECT "id" FROM "Design" WHERE "id" = ${1} AND "organizationId" = ${2}`);
    expect(sameText.postgresName).toBe(a.postgresName);
    expect(otherText.postgresName).not.toBe(a.postgresName);
    expect(a.postgresName!.length).toBeLessThan(64); // PostgreSQL's identifier limit
  });

  it("gives statements assembled from fragments no name (their texts are not a fixed set), with their values flattened", () => {
    const assembled = statementOf(tag`SELECT "id" FROM "Group" WHERE "id" IN (${Prisma.join(["a", "b"])}) AND "name" = ${"n"}`, [
      Prisma.join(["a", "b"]),
      "n",
    ]);
    expect(assembled.postgresName).toBeUndefined();
    expect(assembled.postgres).toBe('SELECT "id" FROM "Group" WHERE "id" IN ($1,$2) AND "name" = $3');
    expect(assembled.values).toEqual(["a", "b", "n"]);
    expect(statementOf(Prisma.sql`SELECT ${1}`, []).postgresName).toBeUndefined();
  });
});
