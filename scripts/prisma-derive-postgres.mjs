// Derives prisma/postgres/schema.prisma from the SQLite source schema. One source of truth for the
// data model; the two files differ only in the datasource provider and the generated client's path.
// A test (lib/db/schema-derivation.test.ts) fails when the committed PostgreSQL schema is stale.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export function derivePostgresSchema(source) {
  const out = source
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output     = "../lib/generated/sqlite"', 'output     = "../../lib/generated/postgres"')
    .replace('url      = "file:../data/dev.db"', 'url      = "postgresql://localhost/unused"');
  if (out === source || !out.includes('"postgresql"') || !out.includes("lib/generated/postgres") || !out.includes("postgresql://")) {
    throw new Error("prisma/schema.prisma no longer has the expected provider/output lines");
  }
  return "// GENERATED from prisma/schema.prisma by `npm run db:derive`. Do not edit.\n" + out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const source = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
  mkdirSync(path.join(root, "prisma/postgres"), { recursive: true });
  writeFileSync(path.join(root, "prisma/postgres/schema.prisma"), derivePostgresSchema(source));
  console.log("wrote prisma/postgres/schema.prisma");
}
