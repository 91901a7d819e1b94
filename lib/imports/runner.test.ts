// The import from upload to issued credentials on a real SQLite database: nothing is written before
// the confirmation, every valid row becomes exactly one credential even when the runner loses its lease
// mid-way or two passes race, refusals (the free plan's quota) are recorded per row, and one
// organization can never reach another's import.
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("imports");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const { deliverDueEmails } = await import("../mail/worker");
const imports = await import("./service");
const { runImportJobs } = await import("./runner");

type Org = { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };

async function orgWithTemplate(slug: string, plan: "free" | "premium", quota?: number): Promise<{ org: Org; groupId: string }> {
  const created = await createOrganization({ slug, plan });
  if (quota !== undefined) await db().organization.update({ where: { id: created.id }, data: { monthlyIssueQuota: quota } });
  const org = { ...created, monthlyIssueQuota: quota ?? null };
  const design = await createDesign(org, { name: "D", type: "certificate" });
  const group = await createGroup(org.id, { name: `Course ${slug}`, designIds: [design.id] });
  return { org, groupId: group.id };
}

function csv(rows: number, bad: Record<number, string> = {}): Uint8Array {
  const lines = ["Name,Email,Issue date,Grade"];
  for (let i = 1; i <= rows; i++) lines.push(bad[i] ?? `Person ${i},person${i}@example.com,,${i % 5}`);
  return new TextEncoder().encode(lines.join("\n") + "\n");
}

async function stagedJob(org: Org, groupId: string, file: Uint8Array): Promise<string> {
  const { id } = await imports.startImport(org, null, { fileName: "people.csv", bytes: file, groupId });
  const job = await imports.getImportJob(org.id, id);
  await imports.checkImport(org.id, id, job.mapping);
  return id;
}

async function runUntilIdle(): Promise<void> {
  for (let i = 0; i < 100 && (await runImportJobs()) > 0; i++) {
    /* next pass */
  }
}

const credentialsOf = (groupId: string) => db().credential.count({ where: { groupId } });

describe("a CSV import", () => {
  it("stages and reports every row without writing a credential, then issues the valid ones once confirmed", async () => {
    const { org, groupId } = await orgWithTemplate("happy", "premium");
    const { id } = await imports.startImport(org, null, {
      fileName: "people.csv",
      bytes: csv(10, { 3: "Bad Email,not-an-email,,1", 7: "Bad Date,x@example.com,2026-02-30,1", 9: ",nobody@example.com,,2" }),
      groupId,
    });
    const uploaded = await imports.getImportJob(org.id, id);
    expect(uploaded).toMatchObject({ status: "uploaded", totalRows: 10, columns: ["Name", "Email", "Issue date", "Grade"] });
    expect(uploaded.mapping).toEqual({ "recipient.name": 0, "recipient.email": 1, issueDate: 2, "custom.grade": 3 });

    expect(await imports.checkImport(org.id, id, uploaded.mapping)).toEqual({ validRows: 7, invalidRows: 3 });
    const report = await imports.invalidImportRows(org.id, id);
    expect(report.map((r) => [r.line, r.problems.map((p) => `${p.column}: ${p.message}`)])).toEqual([
      [4, ["Email: must be a valid email address"]],
      [8, ["Issue date: must be a real calendar date in YYYY-MM-DD form"]],
      [10, ["Name: must not be empty"]],
    ]);
    expect(await credentialsOf(groupId)).toBe(0);
    await expect(runImportJobs()).resolves.toBe(0); // not confirmed: the runner leaves it alone

    await imports.confirmImport(org.id, id, { sendEmails: true });
    await runUntilIdle();
    const progress = await imports.importProgress(org.id, id);
    expect(progress).toMatchObject({
      status: "done",
      totalRows: 10,
      validRows: 7,
      invalidRows: 3,
      processedRows: 7,
      issuedRows: 7,
      failedRows: 0,
    });
    expect(progress.emails).toEqual({ sent: 0, queued: 7, failed: 0 });
    expect(await credentialsOf(groupId)).toBe(7);
    const credential = await db().credential.findFirstOrThrow({ where: { groupId, recipientName: "Person 2" } });
    expect(credential).toMatchObject({ status: "issued", customAttributes: JSON.stringify({ "custom.grade": "2" }) });

    while ((await deliverDueEmails({ deliver: async () => "test" })) > 0) {
      /* deliver all */
    }
    expect((await imports.importProgress(org.id, id)).emails).toEqual({ sent: 7, queued: 0, failed: 0 });
    // The file is dropped once confirmed: the rows hold everything.
    expect((await db().importJob.findUniqueOrThrow({ where: { id } })).source).toBe("");
  });

  it("issues without email when asked not to send", async () => {
    const { org, groupId } = await orgWithTemplate("nosend", "premium");
    const id = await stagedJob(org, groupId, csv(4));
    await imports.confirmImport(org.id, id, { sendEmails: false });
    await runUntilIdle();
    expect((await imports.importProgress(org.id, id)).issuedRows).toBe(4);
    const ids = await db().credential.findMany({ where: { groupId }, select: { id: true, status: true } });
    expect(ids.map((c) => c.status)).toEqual(["issued", "issued", "issued", "issued"]);
    expect(await db().emailOutbox.count({ where: { credentialId: { in: ids.map((c) => c.id) } } })).toBe(0);
  });

  it("records the free plan's quota refusal per row, with the API's message", async () => {
    const { org, groupId } = await orgWithTemplate("quota", "free", 3);
    const id = await stagedJob(org, groupId, csv(5));
    await imports.confirmImport(org.id, id, { sendEmails: true });
    await runUntilIdle();
    expect(await imports.importProgress(org.id, id)).toMatchObject({ status: "done", processedRows: 5, issuedRows: 3, failedRows: 2 });
    const failed = await imports.failedImportRows(org.id, id);
    expect(failed.map((f) => f.line)).toEqual([5, 6]);
    expect(failed[0]!.name).toBe("Person 4");
    expect(failed[0]!.error).toMatch(/^The free plan issues up to 3 credentials per calendar month/);
    expect(await credentialsOf(groupId)).toBe(3);
  });

  it("changing the mapping replaces the staged rows; a confirmed import can no longer change", async () => {
    const { org, groupId } = await orgWithTemplate("remap", "premium");
    const id = await stagedJob(org, groupId, csv(3));
    await imports.reopenImportMapping(org.id, id);
    expect(await db().importRow.count({ where: { jobId: id } })).toBe(0);
    // Grade as the name: 1, 2, 3 are names too.
    expect(await imports.checkImport(org.id, id, { "recipient.name": 3 })).toEqual({ validRows: 3, invalidRows: 0 });
    expect(await db().importRow.count({ where: { jobId: id } })).toBe(3);
    await imports.confirmImport(org.id, id, { sendEmails: false });
    await expect(imports.confirmImport(org.id, id, { sendEmails: false })).rejects.toMatchObject({ code: "conflict" });
    await expect(imports.checkImport(org.id, id, { "recipient.name": 0 })).rejects.toMatchObject({ code: "conflict" });
    await expect(imports.reopenImportMapping(org.id, id)).rejects.toMatchObject({ code: "conflict" });
    await runUntilIdle();
  });

  it("refuses a file with no valid row at confirmation, and bad files at upload with the reason", async () => {
    const { org, groupId } = await orgWithTemplate("allbad", "premium");
    const id = await stagedJob(org, groupId, new TextEncoder().encode("Name,Email\n,x\n"));
    await expect(imports.confirmImport(org.id, id, { sendEmails: true })).rejects.toThrow("No row of this file is valid");
    await expect(
      imports.startImport(org, null, { fileName: "x.csv", bytes: new TextEncoder().encode('a,b\n"open'), groupId }),
    ).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "file", message: expect.stringMatching(/^Line 2: a quoted field is not closed/) }],
    });
  });
});

describe("the runner's lease", () => {
  it("respects a live lease, and resumes a job whose runner died once the lease expires", async () => {
    const { org, groupId } = await orgWithTemplate("crash", "premium");
    const id = await stagedJob(org, groupId, csv(20));
    await imports.confirmImport(org.id, id, { sendEmails: false });
    // A runner that claimed the job, issued nothing yet, and died.
    await db().importJob.update({
      where: { id },
      data: { status: "running", leaseOwner: "dead-runner", leaseUntil: new Date(Date.now() + 60_000) },
    });
    expect(await runImportJobs()).toBe(0);
    expect(await credentialsOf(groupId)).toBe(0);
    expect(await runImportJobs(new Date(Date.now() + 120_000))).toBe(20);
    expect(await imports.importProgress(org.id, id)).toMatchObject({ status: "done", issuedRows: 20 });
    expect(await credentialsOf(groupId)).toBe(20);
  });

  it("a runner that lost its lease mid-way stops without issuing the row it was on; the next one finishes, nothing twice", async () => {
    const { org, groupId } = await orgWithTemplate("steal", "premium");
    const id = await stagedJob(org, groupId, csv(300));
    await imports.confirmImport(org.id, id, { sendEmails: true });
    const first = runImportJobs();
    // While it runs, the process still answers: a timer fires at once (an HTTP request would be served).
    const before = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(performance.now() - before).toBeLessThan(250);
    // Once some rows are done, another runner takes the lease (as if ours had expired).
    await expect.poll(() => db().importRow.count({ where: { jobId: id, status: "done" } }), { interval: 5 }).toBeGreaterThan(5);
    await db().importJob.update({ where: { id }, data: { leaseOwner: "thief", leaseUntil: new Date(Date.now() + 60_000) } });
    const processed = await first;
    expect(processed).toBeLessThan(300);
    const done = await db().importRow.count({ where: { jobId: id, status: "done" } });
    // Exactly the rows marked done have credentials: the interrupted row's credential rolled back.
    expect(await credentialsOf(groupId)).toBe(done);
    expect((await db().importJob.findUniqueOrThrow({ where: { id } })).processedRows).toBe(done);

    await db().importJob.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1) } });
    await runUntilIdle();
    expect(await imports.importProgress(org.id, id)).toMatchObject({ status: "done", processedRows: 300, issuedRows: 300 });
    expect(await credentialsOf(groupId)).toBe(300);
    const rows = await db().importRow.findMany({ where: { jobId: id }, select: { credentialId: true } });
    expect(new Set(rows.map((r) => r.credentialId)).size).toBe(300);
    expect(await db().emailOutbox.count({ where: { credentialId: { in: rows.map((r) => r.credentialId!) } } })).toBe(300);
  });

  it("two passes at once: one claims the job, the other finds nothing", async () => {
    const { org, groupId } = await orgWithTemplate("race", "premium");
    const id = await stagedJob(org, groupId, csv(50));
    await imports.confirmImport(org.id, id, { sendEmails: false });
    const counts = await Promise.all([runImportJobs(), runImportJobs(), runImportJobs()]);
    expect(counts.sort((a, b) => a - b)).toEqual([0, 0, 50]);
    expect(await credentialsOf(groupId)).toBe(50);
  });
});

describe("one organization's import", () => {
  it("is not found for another organization, whatever it tries", async () => {
    const a = await orgWithTemplate("owner-a", "premium");
    const b = await orgWithTemplate("other-b", "premium");
    const id = await stagedJob(a.org, a.groupId, csv(2));
    const notFound = { code: "not_found" };
    await expect(imports.getImportJob(b.org.id, id)).rejects.toMatchObject(notFound);
    await expect(imports.importProgress(b.org.id, id)).rejects.toMatchObject(notFound);
    await expect(imports.importMappingView(b.org.id, id)).rejects.toMatchObject(notFound);
    await expect(imports.checkImport(b.org.id, id, { "recipient.name": 0 })).rejects.toMatchObject(notFound);
    await expect(imports.reopenImportMapping(b.org.id, id)).rejects.toMatchObject(notFound);
    await expect(imports.confirmImport(b.org.id, id, { sendEmails: true })).rejects.toMatchObject(notFound);
    await expect(imports.invalidImportRows(b.org.id, id)).rejects.toMatchObject(notFound);
    await expect(imports.failedImportRows(b.org.id, id)).rejects.toMatchObject(notFound);
    // Nor can it import into A's template.
    await expect(imports.startImport(b.org, null, { fileName: "x.csv", bytes: csv(1), groupId: a.groupId })).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "groupId", message: "choose one of your credential templates" }],
    });
    expect((await imports.getImportJob(a.org.id, id)).status).toBe("validated");
  });
});
