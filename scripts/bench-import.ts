// npm run bench:import — a 10,000-row CSV through the import path on SQLite, with mail written by the
// default file transport (.eml files; BENCH_SMTP=1: a local SMTP sink instead). Prints rows/s to validated (parsed, checked with the API's schema and staged), to issued (the
// runner made every credential) and to emailed (every outbox row `sent`), the total seconds, and this
// process's CPU seconds at each stage (the figure to compare between runs on a loaded machine).
//
// Driven in-process, not over HTTP: the dashboard's steps are server actions behind a next-auth
// session, which a script cannot call without scraping action ids from a build. The script calls the
// same service functions those actions call (startImport, checkImport, confirmImport) and runs the
// server's own background loops (startBackgroundWork: the import runner and the mail worker) in this
// process, on a fresh SQLite file, exactly as the server would.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { smtpSink } from "./bench/smtp-sink";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const LIMIT_SECONDS = 600;

// Every 100th recipient is named in a script no bundled font has (Ethiopic): the report warns about them.
const UNDRAWABLE_ROWS = Math.floor(ROWS / 100);
// A few names in scripts the renderer draws, so the report's check sees more than Latin.
const NAMES = ["Bench Recipient", "محمد علي", "דוד כהן", "अनन्या शर्मा", "Zoë Ångström-Núñez"];

function csvFile(rows: number): Uint8Array {
  const lines = ["Full name;E-mail;Issue date;Grade"];
  for (let i = 1; i <= rows; i++) {
    const name = i % 100 === 0 ? `ሰላም ${i}` : `${NAMES[i % NAMES.length]} ${i}`;
    lines.push(`"${name}";bench.${i}@example.com;;${["A", "B", "C"][i % 3]}`);
  }
  return new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`);
}

async function waitFor(what: string, check: () => Promise<boolean>, started: number): Promise<number> {
  while (!(await check())) {
    if (performance.now() - started > LIMIT_SECONDS * 1000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return (performance.now() - started) / 1000;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "cis-bench-import-"));
  const sink = await smtpSink();
  Object.assign(process.env, {
    DATABASE_URL: `file:${dir}/bench.db`,
    DATA_DIR: dir,
    LOG_LEVEL: "warn",
    // The file transport is what a default install uses. Through the SMTP sink, delivery is capped near
    // 80 messages/s by nodemailer's sockets (Nagle's algorithm against delayed ACKs, ~40 ms a message
    // per connection), which would measure that rather than the import.
    SMTP_URL: process.env.BENCH_SMTP === "1" ? `smtp://127.0.0.1:${sink.port}?pool=true&maxConnections=5` : "",
  });
  // Imported after the environment is set: the configuration is read once, on first use.
  const { applyMigrations } = await import("../lib/db/migrate");
  const { db } = await import("../lib/db");
  const { createOrganization } = await import("../lib/organizations/service");
  const { createDesign } = await import("../lib/designs/service");
  const { createGroup } = await import("../lib/groups/service");
  const imports = await import("../lib/imports/service");
  const { importTextWarnings } = await import("../lib/imports/text-warnings");
  const { startBackgroundWork } = await import("../lib/background");
  // As a server process does at start (instrumentation.ts).
  (await import("../lib/db/wal-checkpointer")).enableWalCheckpoints();

  await applyMigrations(process.env.DATABASE_URL!);
  const org = { ...(await createOrganization({ slug: "bench", name: "Bench Academy", plan: "premium" })), monthlyIssueQuota: null };
  const design = await createDesign(org, { name: "Certificate", type: "certificate" });
  const group = await createGroup(org.id, { name: "Bench Course", designIds: [design.id] });
  const file = csvFile(ROWS);
  const background = startBackgroundWork();

  try {
    // CPU time of this process (server work, all in process): comparable across a loaded machine's runs.
    const cpuSeconds = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    };
    const cpuStarted = cpuSeconds();
    const started = performance.now();
    const { id } = await imports.startImport(org, null, { fileName: "bench.csv", bytes: file, groupId: group.id });
    const job = await imports.getImportJob(org.id, id);
    const checked = await imports.checkImport(org.id, id, job.mapping);
    const validatedSeconds = (performance.now() - started) / 1000;
    const validatedCpu = cpuSeconds() - cpuStarted;
    if (checked.validRows !== ROWS) throw new Error(`expected ${ROWS} valid rows, got ${JSON.stringify(checked)}`);
    // What the report page adds to the check: every valid row's text against the template's designs.
    const warningsStarted = performance.now();
    const warnings = await importTextWarnings(org, id);
    const warningsSeconds = (performance.now() - warningsStarted) / 1000;
    const warningsCpu = cpuSeconds() - cpuStarted - validatedCpu;
    if (warnings.rowCount !== UNDRAWABLE_ROWS)
      throw new Error(`expected ${UNDRAWABLE_ROWS} rows with text warnings, got ${warnings.rowCount}`);

    await imports.confirmImport(org.id, id, { sendEmails: true });
    const issuedSeconds = await waitFor(
      "the import to finish",
      async () => (await imports.getImportJob(org.id, id)).status === "done",
      started,
    );
    const issuedCpu = cpuSeconds() - cpuStarted - warningsCpu;
    const progress = await imports.importProgress(org.id, id);
    if (progress.issuedRows !== ROWS) throw new Error(`expected ${ROWS} issued, got ${JSON.stringify(progress)}`);
    const emailedSeconds = await waitFor(
      "every email to be sent",
      async () => (await db().emailOutbox.count({ where: { status: "sent" } })) >= ROWS,
      started,
    );

    const emailedCpu = cpuSeconds() - cpuStarted - warningsCpu;
    const via = process.env.BENCH_SMTP === "1" ? "a local SMTP sink" : ".eml files (the default file transport)";
    console.log(
      `\nCSV import, ${ROWS.toLocaleString("en-US")} rows (${(file.length / 1024 / 1024).toFixed(2)} MB), SQLite, mail to ${via}, in-process\n`,
    );
    console.log("| stage | seconds since upload | rows/s | CPU seconds since upload |");
    console.log("|---|---:|---:|---:|");
    console.log(
      `| validated (parsed, checked, staged) | ${validatedSeconds.toFixed(2)} | ${(ROWS / validatedSeconds).toFixed(0)} | ${validatedCpu.toFixed(2)} |`,
    );
    console.log(
      `| (the report's text warnings, ${UNDRAWABLE_ROWS} rows warned: ${warningsSeconds.toFixed(2)} s on its own, not in the totals) | | ${(ROWS / warningsSeconds).toFixed(0)} | (${warningsCpu.toFixed(2)}) |`,
    );
    console.log(
      `| issued (every credential created and issued) | ${issuedSeconds.toFixed(2)} | ${(ROWS / issuedSeconds).toFixed(0)} | ${issuedCpu.toFixed(2)} |`,
    );
    console.log(
      `| emailed (every outbox row sent) | ${emailedSeconds.toFixed(2)} | ${(ROWS / emailedSeconds).toFixed(0)} | ${emailedCpu.toFixed(2)} |`,
    );
    console.log(
      `\ntotal: ${emailedSeconds.toFixed(1)} s${process.env.BENCH_SMTP === "1" ? ` (the SMTP sink received ${sink.received()} messages)` : ""}`,
    );
  } finally {
    background.stop();
    await sink.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
