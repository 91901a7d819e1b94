// Prisma CLI configuration. The engine is the bundled JavaScript/WebAssembly one (TOOLCHAIN.md):
// the database is reached through the same driver adapters the app uses.
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? "file:./data/dev.db";
const isPostgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  async adapter() {
    return isPostgres ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  },
});
