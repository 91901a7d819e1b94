// Whether the Next build in .next is older than the sources it was built from. One rule for
// `npm start` (scripts/start.ts) and the test harness (e2e/support/servers.ts).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "lib", "public", "instrumentation.ts", "next.config.mjs", "package-lock.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    // Generated clients and tests do not change what Next builds.
    if (child === "generated" || child === "node_modules" || child.startsWith(".") || /\.test\.tsx?$/.test(child)) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

export function buildIsStale(root = process.cwd()): boolean {
  const buildId = path.join(root, ".next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}
