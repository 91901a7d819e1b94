// Generates both Prisma clients (SQLite and PostgreSQL): the app picks one at run time from DATABASE_URL.
import { execFileSync } from "node:child_process";

for (const schema of ["prisma/schema.prisma", "prisma/postgres/schema.prisma"]) {
  execFileSync("npx", ["prisma", "generate", "--schema", schema], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("prisma: generated the SQLite and PostgreSQL clients");
