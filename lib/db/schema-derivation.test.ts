import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { derivePostgresSchema } from "../../scripts/prisma-derive-postgres.mjs";

describe("the PostgreSQL schema", () => {
  it("is derived from prisma/schema.prisma (run `npm run db:derive` after editing it)", () => {
    const source = readFileSync("prisma/schema.prisma", "utf8");
    expect(readFileSync("prisma/postgres/schema.prisma", "utf8")).toBe(derivePostgresSchema(source));
  });
});
