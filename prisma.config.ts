// Prisma CLI configuration. The engine is the bundled JavaScript/WebAssembly one (TOOLCHAIN.md):
// the database is reached through the same driver adapters the app uses.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? "file:./data/dev.db";
const isPostgres = /^postgres(ql)?:\/\//.test(url);
// The CLI opens the adapter even for commands that need no database (migrate diff); on a fresh clone
// the SQLite file's folder does not exist yet, and opening it would fail.
if (!isPostgres) mkdirSync(path.dirname(url.replace(/^file:/, "")), { recursive: true });

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  async adapter() {
    return isPostgres ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  },
});
