// Reads the mocha JSON reports of each W3C suite run and prints one summary line per suite, then each
// failure (full test title and the first line of its error), and writes the table docs/w3c-suites.md
// shows (summary.md) and the details (summary.json) into the results directory.
//
//   node scripts/w3c-suites/summarize.mjs <results-dir> <suite-name>...
//
// Per suite it reads <suite>.declared.json (a dry run: every test the suite declares for this
// configuration), <suite>.json (the run) and <suite>.commit. Counting:
//   not applicable  tests the suite skipped itself (mocha's pending: a feature we do not declare)
//   run             every other declared test
//   passed          tests that passed
//   failed          run − passed: tests that failed, and tests that never ran because the setup hook
//                   before them failed (mocha leaves those out of its report; they are listed here
//                   under the hook's error)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [resultsDir, ...suites] = process.argv.slice(2);
if (!resultsDir || suites.length === 0) {
  console.error("Usage: node scripts/w3c-suites/summarize.mjs <results-dir> <suite-name>...");
  process.exit(2);
}

const firstLine = (text) =>
  String(text ?? "")
    .split("\n")[0]
    .slice(0, 300);
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
const HOOK = / "(before|after) (all|each)" hook/;

const rows = [];
const failures = [];
for (const suite of suites) {
  const commitFile = path.join(resultsDir, `${suite}.commit`);
  const commit = existsSync(commitFile) ? readFileSync(commitFile, "utf8").trim() : "?";
  const report = readJson(path.join(resultsDir, `${suite}.json`));
  const declared = readJson(path.join(resultsDir, `${suite}.declared.json`));
  if (!report) {
    rows.push({ suite, commit, run: 0, passed: 0, failed: 0, notApplicable: 0, note: "no report: the suite did not run" });
    continue;
  }
  const passed = new Set(report.passes.map((t) => t.fullTitle));
  const pending = new Set([...report.pending, ...(declared?.pending ?? [])].map((t) => t.fullTitle));
  const testFailures = report.failures.filter((t) => !HOOK.test(t.fullTitle));
  const hookFailures = report.failures.filter((t) => HOOK.test(t.fullTitle));
  const ran = new Set([...passed, ...pending, ...testFailures.map((t) => t.fullTitle)]);
  const neverRan = (declared?.tests ?? []).map((t) => t.fullTitle).filter((title) => !ran.has(title));

  for (const test of testFailures) failures.push({ suite, title: test.fullTitle, error: firstLine(test.err?.message) });
  for (const hook of hookFailures) {
    const scope = hook.fullTitle.split(HOOK)[0];
    const blocked = neverRan.filter((title) => title.startsWith(`${scope} `));
    failures.push({ suite, title: hook.fullTitle, error: firstLine(hook.err?.message), blocked });
  }
  const declaredCount = declared ? declared.tests.length : report.tests.length;
  const run = declaredCount - pending.size;
  rows.push({ suite, commit, run, passed: passed.size, failed: run - passed.size, notApplicable: pending.size });
}

for (const row of rows) {
  console.log(
    `${row.suite} @ ${row.commit.slice(0, 12)}: run ${row.run}, passed ${row.passed}, failed ${row.failed}, ` +
      `not applicable ${row.notApplicable}${row.note ? ` (${row.note})` : ""}`,
  );
}
if (failures.length) {
  console.log("\nFailures:");
  for (const f of failures) {
    console.log(`- [${f.suite}] ${f.title}\n    ${f.error}`);
    if (f.blocked?.length) console.log(`    (${f.blocked.length} tests after this hook never ran)`);
  }
}

const table = [
  "| Suite | Commit | Run | Passed | Failed | Not applicable |",
  "| --- | --- | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.suite} | \`${r.commit.slice(0, 12)}\` | ${r.run} | ${r.passed} | ${r.failed} | ${r.notApplicable} |`),
].join("\n");
writeFileSync(path.join(resultsDir, "summary.md"), `${table}\n`);
writeFileSync(path.join(resultsDir, "summary.json"), `${JSON.stringify({ rows, failures }, null, 2)}\n`);
console.log(`\nTable written to ${path.join(resultsDir, "summary.md")}`);
