// Expiry reminders and expired notices on PostgreSQL: runs when TEST_POSTGRES_URL names a server (CI
// starts one), on a scratch database of its own. The claimers that run at once each use connections
// of the shared pool, as two processes would: a notice is still emailed and announced exactly once.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expiryNoticesContract } from "../../test/support/expiry-notices.contract";

const serverUrl = process.env.TEST_POSTGRES_URL?.trim();

describe.skipIf(!serverUrl)("on PostgreSQL", () => {
  let finish: () => Promise<void> = async () => undefined;
  let url = "";
  beforeAll(async () => {
    const { postgresTestDatabase } = await import("../../test/support/db/scratch-database");
    const scratch = await postgresTestDatabase(serverUrl!, "cis_unit_expiry_notices");
    finish = scratch.finish;
    url = scratch.url;
  });
  afterAll(() => finish());
  if (serverUrl) expiryNoticesContract();

  it("two processes draining at once: each due reminder is emailed and announced once", async () => {
    const { db } = await import("../db");
    const { createOrganization } = await import("../organizations/service");
    const { createDesign } = await import("../designs/service");
    const { createGroup } = await import("../groups/service");
    const { createIssueCredential } = await import("./service");
    const { addPeriod, todayUtc } = await import("../core/dates");
    const org = await createOrganization({ slug: "two-processes", plan: "premium" });
    const design = await createDesign(org, { name: "D", type: "certificate" });
    const group = await createGroup(org.id, { name: "G", designIds: [design.id], expiryReminderDays: 5 });
    await db().webhookEndpoint.create({
      data: { id: "whe_two", organizationId: org.id, url: "https://example.com/hook", events: '["*"]', encryptedSecret: "x" },
    });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const c = await createIssueCredential(org, {
        groupId: group.id,
        recipient: { name: `P${i}`, email: `two${i}@example.com` },
        issueDate: addPeriod(todayUtc(), -10, "day"),
        expiryDate: addPeriod(todayUtc(), 5, "day"),
      });
      ids.push(c.id);
    }
    const run = promisify(execFile);
    const worker = () =>
      run("npx", ["tsx", "--tsconfig", "tsconfig.json", "test/support/expiry-notice-worker.ts"], {
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "silent" },
        timeout: 120_000,
      });
    const outputs = await Promise.all([worker(), worker()]);
    const claimed = outputs.map((o) => (JSON.parse(o.stdout.trim().split("\n").pop()!) as { claimed: number }).claimed);
    expect(claimed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    for (const id of ids) {
      expect(await db().emailOutbox.count({ where: { credentialId: id, kind: "expiry_reminder" } })).toBe(1);
      const events = await db().webhookEvent.findMany({ where: { organizationId: org.id, type: "credential.expiring" } });
      expect(events.filter((e) => e.payload.includes(`"id":"${id}"`))).toHaveLength(1);
    }
  }, 180_000);
});
