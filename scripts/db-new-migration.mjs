// Writes a migration for both databases from a change to prisma/schema.prisma:
//   npm run db:migration -- <name>
// It derives the PostgreSQL schema, then diffs each provider's schema as of the last commit (or an
// empty database, for the first migration) against the working copy with `prisma migrate diff`,
// which needs no database. Review both SQL files before committing them.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:migration -- <name_in_snake_case>");
  process.exit(2);
}
execFileSync("node", ["scripts/prisma-derive-postgres.mjs"], { stdio: "inherit" });
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

function previousSchema(file) {
  try {
    const text = execFileSync("git", ["show", `HEAD:${file}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const dir = mkdtempSync(path.join(tmpdir(), "schema-"));
    const out = path.join(dir, "schema.prisma");
    writeFileSync(out, text);
    return ["--from-schema-datamodel", out];
  } catch {
    return ["--from-empty"];
  }
}

for (const [schema, dir] of [
  ["prisma/schema.prisma", "prisma/migrations"],
  ["prisma/postgres/schema.prisma", "prisma/postgres/migrations"],
]) {
  const sql = execFileSync("npx", ["prisma", "migrate", "diff", ...previousSchema(schema), "--to-schema-datamodel", schema, "--script"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log(`${schema}: no changes`);
    continue;
  }
  const target = path.join(dir, `${stamp}_${name}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, "migration.sql"), sql);
  console.log(`wrote ${target}/migration.sql`);
  if (dir === "prisma/migrations" && sql.includes(`"new_Recipient"`)) {
    // Prisma rebuilds a SQLite table it cannot ALTER. "Recipient" carries what Prisma does not know:
    // the view RecipientGramSource (the rename fails while it exists), five triggers (dropped with the
    // old table) and two FTS5 indexes keyed by rowid (which the copy renumbers).
    console.warn(
      `WARNING: this SQLite migration rebuilds "Recipient". Before the copy, DROP VIEW "RecipientGramSource"; after the rename,\n` +
        `  recreate it and the triggers of migrations recipient_text_search and recipient_short_text_search, then rebuild both\n` +
        `  indexes: INSERT INTO "RecipientText"("RecipientText") VALUES ('rebuild'); DELETE FROM "RecipientGram";\n` +
        `  INSERT INTO "RecipientGram"("rowid", "grams") SELECT "recipientRowid", "grams" FROM "RecipientGramSource";`,
    );
  }
}
if (!existsSync("prisma/migrations") || readdirSync("prisma/migrations").length === 0) process.exit(1);
