#!/usr/bin/env node
// `npm test`: every suite, one after the other, then one final line `N passed, N failed`.
//   1. static checks: lint (ESLint), format (Prettier), import boundaries (dependency-cruiser) and types (tsc),
//      one count each
//   2. unit tests (Vitest)
//   3. end-to-end tests (Playwright: api-sqlite, api-postgres, browser)
// PostgreSQL: TEST_POSTGRES_URL if set; otherwise a throw-away cluster (scripts/pg-throwaway.sh) when
// `initdb` is on PATH, stopped at the end; otherwise the PostgreSQL project is skipped, loudly (and
// counted as a failure under CI=true, where it must be available).
// Exit code: 0 only when nothing failed.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPORTS = path.join(ROOT, "test-results");
const CI = Boolean(process.env.CI && process.env.CI !== "false" && process.env.CI !== "0");

/** @type {{ name: string; passed: number; failed: number; skipped: number; seconds: number; note?: string }[]} */
const suites = [];
let pgDir = null;

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = "!".repeat(width);
  console.log(`\n${bar}\n${lines.map((l) => `! ${l.padEnd(width - 4)} !`).join("\n")}\n${bar}\n`);
}

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", () => resolve(127));
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function startPostgres() {
  if (process.env.TEST_POSTGRES_URL?.trim()) {
    console.log(`PostgreSQL: using TEST_POSTGRES_URL (${process.env.TEST_POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")})`);
    return true;
  }
  if (!onPath("initdb") || !onPath("pg_ctl")) {
    banner([
      "PostgreSQL is NOT available: initdb/pg_ctl are not on PATH and TEST_POSTGRES_URL is unset.",
      "The api-postgres project is SKIPPED. Only SQLite was tested.",
      ...(CI ? ["CI=true: this counts as a failure."] : []),
    ]);
    return false;
  }
  const started = spawnSync(path.join(ROOT, "scripts/pg-throwaway.sh"), ["start"], { cwd: ROOT, encoding: "utf8" });
  if (started.status !== 0) {
    banner([
      "Could not start a throw-away PostgreSQL cluster; the api-postgres project is SKIPPED.",
      ...(started.stderr ?? "").trim().split("\n").slice(-5),
    ]);
    return false;
  }
  const lines = started.stdout.trim().split("\n");
  pgDir = lines.find((l) => l.startsWith("dir="))?.slice(4) ?? null;
  process.env.TEST_POSTGRES_URL = lines.at(-1);
  console.log(`PostgreSQL: throw-away cluster at ${process.env.TEST_POSTGRES_URL}`);
  return true;
}

function stopPostgres() {
  if (!pgDir) return;
  spawnSync(path.join(ROOT, "scripts/pg-throwaway.sh"), ["stop", pgDir], { stdio: "ignore" });
  pgDir = null;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopPostgres();
    process.exit(130);
  });
}

/** Static checks that fail CI like a test: the import boundaries of docs/architecture.md and the types. */
async function staticChecks() {
  console.log("\n=== Static checks (lint, format, import boundaries, types) ===\n");
  // Lint (ESLint; any warning fails) and formatting (Prettier) run first, one count each.
  for (const [name, script] of [
    ["lint (eslint)", "lint"],
    ["format (prettier --check)", "format:check"],
  ]) {
    const started = Date.now();
    const code = await run("npm", ["run", "-s", script]);
    suites.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, seconds: (Date.now() - started) / 1000 });
  }
  for (const [name, script] of [
    ["import boundaries (dependency-cruiser)", "lint:boundaries"],
    ["types (tsc)", "typecheck"],
  ]) {
    const started = Date.now();
    const code = await run("npm", ["run", "-s", script]);
    suites.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, seconds: (Date.now() - started) / 1000 });
  }
}

/** A static check too: every relative link and #anchor in the Markdown files resolves (scripts/check-doc-links.mjs). */
async function documentationLinks() {
  console.log("\n=== Static check (links in the Markdown files) ===\n");
  const started = Date.now();
  const code = await run("npm", ["run", "-s", "lint:doc-links"]);
  suites.push({
    name: "documentation links",
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    seconds: (Date.now() - started) / 1000,
  });
}

async function unitTests() {
  const report = path.join(REPORTS, "vitest.json");
  rmSync(report, { force: true });
  console.log("\n=== Unit tests (vitest) ===\n");
  const started = Date.now();
  const code = await run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  const json = readJson(report);
  const passed = json?.numPassedTests ?? 0;
  let failed = json?.numFailedTests ?? 0;
  const skipped = (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0);
  let note;
  if (code !== 0 && failed === 0) {
    failed = 1; // a suite that could not load, or vitest itself failing, is a failure too
    note = `vitest exited with code ${code}${json ? " (a test file failed to load?)" : " and wrote no report"}`;
  }
  suites.push({ name: "unit (vitest)", passed, failed, skipped, seconds: (Date.now() - started) / 1000, note });
}

async function e2eTests() {
  const report = path.join(REPORTS, "playwright.json");
  rmSync(report, { force: true });
  console.log("\n=== End-to-end tests (playwright) ===\n");
  const started = Date.now();
  const code = await run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_FILE: report });
  const json = readJson(report);
  const stats = json?.stats ?? {};
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  let failed = stats.unexpected ?? 0;
  const skipped = stats.skipped ?? 0;
  const notes = [];
  if (stats.flaky) notes.push(`${stats.flaky} flaky (passed on retry)`);
  const globalErrors = json?.errors?.length ?? 0;
  if (globalErrors) notes.push(`${globalErrors} error(s) outside tests (global setup?)`);
  if (code !== 0 && failed === 0) {
    failed = Math.max(1, globalErrors);
    notes.push(`playwright exited with code ${code}`);
  }
  const projects = [...new Set((json?.config?.projects ?? []).map((p) => p.name))];
  if (projects.length) notes.push(`projects: ${projects.join(", ")}`);
  suites.push({
    name: "e2e (playwright)",
    passed,
    failed,
    skipped,
    seconds: (Date.now() - started) / 1000,
    note: notes.join("; ") || undefined,
  });
}

async function main() {
  mkdirSync(REPORTS, { recursive: true });
  const totalStarted = Date.now();
  const havePostgres = startPostgres();
  try {
    await staticChecks();
    await documentationLinks();
    await unitTests();
    await e2eTests();
  } finally {
    stopPostgres();
  }
  if (!havePostgres) {
    suites.push({ name: "postgresql", passed: 0, failed: CI ? 1 : 0, skipped: 0, seconds: 0, note: "NOT TESTED: PostgreSQL unavailable" });
  }

  console.log("\n=== Summary ===");
  for (const s of suites) {
    const extra = [s.skipped ? `${s.skipped} skipped` : "", s.note ?? ""].filter(Boolean).join("; ");
    console.log(`${s.name}: ${s.passed} passed, ${s.failed} failed in ${s.seconds.toFixed(1)} s${extra ? ` (${extra})` : ""}`);
  }
  if (!havePostgres) console.log("WARNING: the PostgreSQL project was skipped.");
  console.log(`total time ${((Date.now() - totalStarted) / 1000).toFixed(1)} s`);
  const passed = suites.reduce((a, s) => a + s.passed, 0);
  const failed = suites.reduce((a, s) => a + s.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error) => {
  stopPostgres();
  console.error(error);
  console.log("0 passed, 1 failed");
  process.exitCode = 1;
});
