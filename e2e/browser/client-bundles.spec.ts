// Nothing of the server reaches the browser: the client bundles the build ships (which global setup
// has just built) hold no configuration schema, no database client and no mail transport. A client
// component importing a server module by accident (through a shared helper) shows up here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const SERVER_ONLY_MARKERS = [
  "APP_SECRET",
  "DATABASE_URL",
  "SMTP_URL",
  "GITHUB_CLIENT_SECRET",
  "PrismaClient",
  "better-sqlite3",
  "nodemailer",
  "scryptSync",
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith(".js") ? [full] : [];
  });
}

test("the browser's JavaScript holds no server module", () => {
  const files = filesUnder(path.join(process.cwd(), ".next", "static"));
  expect(files.length).toBeGreaterThan(10);
  const leaks = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return SERVER_ONLY_MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${path.basename(file)}: ${marker}`);
  });
  expect(leaks).toEqual([]);
});
