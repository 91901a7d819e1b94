// Reads the mocha JSON report of each W3C suite run and prints one summary line per suite, then each
// failure (full test title and the first line of its error), so a run can be compared with the table
// in docs/w3c-suites.md.
//
//   node scripts/w3c-suites/summarize.mjs <results-dir> <suite-name>...
//
// "run" counts the tests that executed (passed + failed); "not applicable" counts the tests the suite
// skipped itself (mocha's pending: an endpoint or feature this implementation does not declare).
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

const rows = [];
const failures = [];
for (const suite of suites) {
  const reportFile = path.join(resultsDir, `${suite}.json`);
  const commitFile = path.join(resultsDir, `${suite}.commit`);
  const commit = existsSync(commitFile) ? readFileSync(commitFile, "utf8").trim().slice(0, 12) : "?";
  if (!existsSync(reportFile)) {
    rows.push({ suite, commit, run: 0, passed: 0, failed: 0, notApplicable: 0, note: "no report (the suite did not run)" });
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  const { passes = 0, failures: failed = 0, pending = 0 } = report.stats ?? {};
  rows.push({ suite, commit, run: passes + failed, passed: passes, failed, notApplicable: pending });
  for (const test of report.failures ?? []) {
    failures.push({ suite, title: test.fullTitle, error: firstLine(test.err?.message) });
  }
}

for (const row of rows) {
  console.log(
    `${row.suite} @ ${row.commit}: run ${row.run}, passed ${row.passed}, failed ${row.failed}, not applicable ${row.notApplicable}` +
      (row.note ? ` (${row.note})` : ""),
  );
}
if (failures.length) {
  console.log("\nFailures:");
  for (const f of failures) console.log(`- [${f.suite}] ${f.title}\n    ${f.error}`);
}

const table = [
  "| Suite | Commit | Run | Passed | Failed | Not applicable |",
  "| --- | --- | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.suite} | \`${r.commit}\` | ${r.run} | ${r.passed} | ${r.failed} | ${r.notApplicable} |`),
].join("\n");
writeFileSync(path.join(resultsDir, "summary.md"), `${table}\n`);
writeFileSync(path.join(resultsDir, "summary.json"), `${JSON.stringify({ rows, failures }, null, 2)}\n`);
console.log(`\nTable written to ${path.join(resultsDir, "summary.md")}`);
