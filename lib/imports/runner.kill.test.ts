// A runner process SIGKILLed halfway through a 1,200-row import (mid-transaction, as likely as not):
// the next runner resumes once the dead one's lease has run out, and every row ends up issued exactly
// once, with one credential and one email each, the job's counters agreeing with its rows.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

const dir = await scratchDatabase("imports-kill");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const imports = await import("./service");
const { runImportJobs } = await import("./runner");

const ROWS = 1200;

function csv(rows: number): Uint8Array {
  const lines = ["Name,Email"];
  for (let i = 1; i <= rows; i++) lines.push(`Person ${i},person${i}@example.com`);
  return new TextEncoder().encode(lines.join("\n") + "\n");
}

describe("an import whose runner is SIGKILLed halfway", () => {
  it("resumes without losing or repeating a row", { timeout: 120_000 }, async () => {
    const org = { ...(await createOrganization({ slug: "kill", plan: "premium" })), monthlyIssueQuota: null };
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
    const { id } = await imports.startImport(org, null, { fileName: "people.csv", bytes: csv(ROWS), groupId: group.id });
    const job = await imports.getImportJob(org.id, id);
    await imports.checkImport(org.id, id, job.mapping);
    await imports.confirmImport(org.id, id, { sendEmails: true });

    const runner = spawn(process.execPath, ["--import", "tsx", "test/support/import-runner.ts"], {
      env: { ...process.env, DATABASE_URL: `file:${dir}/db.sqlite`, DATA_DIR: dir, LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const exited = new Promise<void>((resolve) => runner.once("exit", () => resolve()));
    const deadline = Date.now() + 90_000;
    let processed = 0;
    while (processed < ROWS / 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      processed = (await imports.importProgress(org.id, id)).processedRows;
    }
    runner.kill("SIGKILL");
    await exited;

    const halfway = await imports.importProgress(org.id, id);
    expect(halfway.processedRows).toBeGreaterThan(0);
    expect(halfway.processedRows).toBeLessThan(ROWS);
    expect(halfway.status).toBe("running");
    // What was committed before the kill agrees with itself: one credential per row marked done.
    expect(await db().credential.count({ where: { groupId: group.id } })).toBe(halfway.processedRows);

    // The dead runner's lease holds the job until it runs out: a runner now leaves it alone...
    await expect(runImportJobs()).resolves.toBe(0);
    // ...and one after the lease (60 s) resumes it.
    const later = new Date(Date.now() + 61_000);
    for (let i = 0; i < 100 && (await runImportJobs(i === 0 ? later : new Date())) > 0; i++) {
      /* next pass */
    }

    const done = await imports.importProgress(org.id, id);
    expect(done).toMatchObject({ status: "done", processedRows: ROWS, issuedRows: ROWS, failedRows: 0 });
    expect(await db().importRow.count({ where: { jobId: id, status: "done" } })).toBe(ROWS);
    const credentials = await db().credential.findMany({ where: { groupId: group.id }, select: { recipientName: true } });
    expect(credentials).toHaveLength(ROWS);
    expect(new Set(credentials.map((c) => c.recipientName)).size).toBe(ROWS);
    const linked = await db().importRow.findMany({ where: { jobId: id }, select: { credentialId: true } });
    expect(new Set(linked.map((r) => r.credentialId)).size).toBe(ROWS);
    expect(await db().emailOutbox.count({ where: { organizationId: org.id } })).toBe(ROWS);
  });
});
