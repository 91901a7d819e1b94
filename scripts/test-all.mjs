#!/usr/bin/env node
// `npm test`: every suite, then one final line `N passed, N failed`.
//   1. static checks: lint (ESLint), format (Prettier), import boundaries (dependency-cruiser), types (tsc)
//      and the links of the Markdown files, one count each
//   2. unit tests (Vitest)
//   3. end-to-end tests (Playwright: api-sqlite, api-postgres, browser)
// The unit tests do not depend on the static checks or on the app's build for the end-to-end tests, so
// they run in two lanes at once, one per core of a small CI machine (Vitest runs one worker there, and
// each static check is one single-threaded process): the unit tests, and the static checks followed by
// the build and the few unit test files that mostly wait on real timers (WAITING_UNIT_FILES). The
// static checks' and the build's output is printed whole as each ends, so that it does not interleave
// with the unit tests' lines. The end-to-end tests start once both lanes are done, on a build
// that is then fresh. TEST_SERIAL=1 runs everything one after the other (the build then in the
// end-to-end tests' global setup).
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

/**
 * Runs a command; resolves with its exit code. `buffered`: its output is kept and printed whole, under
 * `title`, when it ends (commands that run beside others would interleave their lines otherwise).
 */
function run(command, args, env, { buffered = false, title = "" } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    const output = [];
    if (buffered) {
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
    }
    const finish = (code) => {
      if (buffered) {
        const text = Buffer.concat(output).toString().trimEnd();
        console.log(`\n--- ${title} (exit code ${code}) ---${text ? `\n${text}` : ""}`);
      }
      resolve(code);
    };
    child.on("error", () => finish(127));
    child.on("close", (code, signal) => finish(code ?? (signal ? 128 : 1)));
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

/** Static checks that fail CI like a test: style, the import boundaries of docs/architecture.md, the types and the documentation's links. */
const STATIC_CHECKS = [
  ["lint (eslint)", "lint"],
  ["format (prettier --check)", "format:check"],
  ["import boundaries (dependency-cruiser)", "lint:boundaries"],
  ["types (tsc)", "typecheck"],
  ["documentation links", "lint:doc-links"],
];

/** The static checks, one after the other, one count each. `buffered`: each one's output printed whole when it ends. */
async function staticChecks({ buffered }) {
  console.log("\n=== Static checks (lint, format, import boundaries, types, links in the Markdown files) ===\n");
  const check = async ([name, script]) => {
    const started = Date.now();
    const code = await run("npm", ["run", "-s", script], {}, { buffered, title: name });
    return { name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, seconds: (Date.now() - started) / 1000 };
  };
  const results = [];
  for (const entry of STATIC_CHECKS) results.push(await check(entry));
  return results;
}

/**
 * The app's build for the end-to-end tests, made now when it is stale (the tests' global setup then finds
 * it fresh). A failed build is not counted here: the end-to-end tests then build again and report it.
 */
async function buildForEndToEnd({ buffered }) {
  const code = await run("npx", ["tsx", "e2e/support/build-if-stale.ts"], {}, { buffered, title: "build for the end-to-end tests" });
  if (code !== 0) console.log("the build failed: the end-to-end tests' global setup tries again and reports it");
}

/**
 * Vitest's worker processes: its own default (one fewer than the cores: 1 on a 2-core CI machine) unless
 * UNIT_WORKERS says otherwise. Not more by default: several test files time real timers and deliveries,
 * and two workers beside the static checks and the build made them miss their marks on 2 cores.
 */
const UNIT_WORKERS = process.env.UNIT_WORKERS ? [`--maxWorkers=${Number(process.env.UNIT_WORKERS)}`] : [];

/**
 * Unit test files that spend their time waiting on real timers (a webhook attempt's 10 s deadline, an
 * SMTP server that never answers), not on the CPU: in the two-lane run they go to the lane of the
 * static checks and the build, after the build, instead of lengthening the unit tests' lane (on 2
 * cores that lane is the longer one by about 100 s).
 */
const WAITING_UNIT_FILES = ["lib/webhooks/worker.test.ts", "lib/mail/smtp-delivery.test.ts"];

/** One Vitest run. `files`: only these; `excluded`: all but these. Its counts, as a suite. */
async function vitestRun({ name, files = [], excluded = [], buffered = false }) {
  const report = path.join(REPORTS, `${name}.json`);
  rmSync(report, { force: true });
  const started = Date.now();
  const args = ["vitest", "run", ...UNIT_WORKERS, ...files, ...excluded.flatMap((f) => ["--exclude", f])];
  const code = await run(
    "npx",
    [...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    {},
    { buffered, title: name },
  );
  const json = readJson(report);
  const passed = json?.numPassedTests ?? 0;
  let failed = json?.numFailedTests ?? 0;
  const skipped = (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0);
  let note;
  if (code !== 0 && failed === 0) {
    failed = 1; // a suite that could not load, or vitest itself failing, is a failure too
    note = `vitest exited with code ${code}${json ? " (a test file failed to load?)" : " and wrote no report"}`;
  }
  return { passed, failed, skipped, seconds: (Date.now() - started) / 1000, note };
}

/** The unit tests as one suite: `parts` are Vitest runs whose counts add up to every unit test. */
function unitSuite(parts) {
  const notes = parts.map((p) => p.note).filter(Boolean);
  return {
    name: "unit (vitest)",
    passed: parts.reduce((a, p) => a + p.passed, 0),
    failed: parts.reduce((a, p) => a + p.failed, 0),
    skipped: parts.reduce((a, p) => a + p.skipped, 0),
    seconds: Math.max(...parts.map((p) => p.seconds)),
    note: notes.join("; ") || undefined,
  };
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
  // The static checks type-check the sources (and count a type error as a failure): the builds of this
  // run need not check them again (next.config.mjs).
  process.env.CIS_BUILD_SKIP_TYPECHECK = "1";
  const totalStarted = Date.now();
  const havePostgres = startPostgres();
  try {
    if (/^(1|true)$/i.test(process.env.TEST_SERIAL ?? "")) {
      const checks = await staticChecks({ buffered: false });
      console.log("\n=== Unit tests (vitest) ===\n");
      suites.push(...checks, unitSuite([await vitestRun({ name: "vitest" })]));
    } else {
      // Two lanes, one per core of a small CI machine: the unit tests; the static checks, then the build,
      // then the unit test files that mostly wait.
      const checksThenBuild = async () => {
        const checks = await staticChecks({ buffered: true });
        await buildForEndToEnd({ buffered: true });
        const waiting = await vitestRun({ name: "vitest-waiting", files: WAITING_UNIT_FILES, buffered: true });
        return { checks, waiting };
      };
      const unitLane = async () => {
        console.log("\n=== Unit tests (vitest) ===\n");
        return vitestRun({ name: "vitest", excluded: WAITING_UNIT_FILES });
      };
      const [{ checks, waiting }, unit] = await Promise.all([checksThenBuild(), unitLane()]);
      suites.push(...checks, unitSuite([unit, waiting]));
    }
    console.log(`\nstatic checks, unit tests and the build took ${((Date.now() - totalStarted) / 1000).toFixed(1)} s`);
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
