// Expiry reminders and expired notices (lib/expiry/schedule.ts, lib/credentials/expiry-notices.ts), the
// same tests on SQLite (lib/credentials/expiry-notices.test.ts) and PostgreSQL (*.postgres.test.ts).
// Call after the test database is set up; modules are imported lazily so they see it.
import { beforeAll, describe, expect, it } from "vitest";

export function expiryNoticesContract() {
  let m: Awaited<ReturnType<typeof load>>;
  let org: { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };
  let designId: string;

  async function load() {
    const { db } = await import("../../lib/db");
    return {
      db,
      credentials: await import("../../lib/credentials/service"),
      notices: await import("../../lib/credentials/expiry-notices"),
      groups: await import("../../lib/groups/service"),
      dates: await import("../../lib/core/dates"),
      composition: await import("../../lib/mail/composition"),
    };
  }

  const day = (offset: number) => m.dates.addPeriod(m.dates.todayUtc(), offset, "day");

  async function group(reminderDays: number | null, extra: { learningEventUrl?: string; language?: "fr" } = {}) {
    return (
      await m.groups.createGroup(org.id, { name: "Safety <course>", designIds: [designId], expiryReminderDays: reminderDays, ...extra })
    ).id;
  }

  async function issue(
    groupId: string,
    expiryDate: string | undefined,
    name = "Ada <b>Lovelace</b>",
    email: string | null = "ada@example.com",
  ) {
    return m.credentials.createIssueCredential(org, {
      groupId,
      recipient: { name, ...(email ? { email } : {}) },
      issueDate: day(-400),
      ...(expiryDate ? { expiryDate } : {}),
    });
  }

  const noticesOf = async (credentialId: string) =>
    (
      await m.db().credentialExpiryNotice.findMany({
        where: { credentialId },
        orderBy: { id: "asc" },
        select: { kind: true, dueDate: true, status: true },
      })
    ).map((n) => `${n.kind} ${n.dueDate} ${n.status}`);

  const events = async (type: string) =>
    (await m.db().webhookEvent.findMany({ where: { organizationId: org.id, type } })).map(
      (e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id,
    );

  const reminderEmails = (credentialId: string) => m.db().emailOutbox.findMany({ where: { credentialId } });

  /** Runs rounds until nothing due is left (what the background loop does). */
  async function drain(now = new Date()) {
    while ((await m.notices.processDueExpiryNotices(now)) > 0) {
      /* next round */
    }
  }

  beforeAll(async () => {
    m = await load();
    const { createOrganization } = await import("../../lib/organizations/service");
    const { createDesign } = await import("../../lib/designs/service");
    org = await createOrganization({ slug: `exp-${Date.now()}`, plan: "premium" });
    designId = (await createDesign(org, { name: "D", type: "certificate" })).id;
    await m.db().webhookEndpoint.create({
      data: { id: `whe_${Date.now()}`, organizationId: org.id, url: "https://example.com/hook", events: '["*"]', encryptedSecret: "x" },
    });
    // The webhook worker does not run here: the events stay as rows to read.
  });

  describe("scheduling", () => {
    it("an issued credential gets a reminder N days before its expiry and an expired notice the day after", async () => {
      const c = await issue(await group(30), day(40));
      expect(await noticesOf(c.id)).toEqual([`expired ${day(41)} queued`, `reminder ${day(10)} queued`]);
    });

    it("a draft gets none until issued; no expiry date, no notices; the setting off, no reminder", async () => {
      const withReminder = await group(30);
      const draft = await m.credentials.createCredential(org, { groupId: withReminder, recipient: { name: "D" }, expiryDate: day(60) });
      expect(await noticesOf(draft.id)).toEqual([]);
      await m.credentials.issueCredential(org, draft.id);
      expect(await noticesOf(draft.id)).toEqual([`expired ${day(61)} queued`, `reminder ${day(30)} queued`]);
      expect(await noticesOf((await issue(withReminder, undefined)).id)).toEqual([]);
      expect(await noticesOf((await issue(await group(null), day(60))).id)).toEqual([`expired ${day(61)} queued`]);
    });

    it("a reminder day already past is not written (fewer than N days left): no late reminder", async () => {
      const c = await issue(await group(30), day(5));
      expect(await noticesOf(c.id)).toEqual([`expired ${day(6)} queued`]);
    });

    it("moving the expiry date moves the pending notices; moving it back queues the cancelled ones again", async () => {
      const c = await issue(await group(7), day(20));
      await m.credentials.updateCredential(org, c.id, { expiryDate: day(50) });
      expect(await noticesOf(c.id)).toEqual([
        `expired ${day(21)} cancelled`,
        `expired ${day(51)} queued`,
        `reminder ${day(13)} cancelled`,
        `reminder ${day(43)} queued`,
      ]);
      await m.credentials.updateCredential(org, c.id, { expiryDate: day(20) });
      expect(await noticesOf(c.id)).toEqual([
        `expired ${day(21)} queued`,
        `expired ${day(51)} cancelled`,
        `reminder ${day(13)} queued`,
        `reminder ${day(43)} cancelled`,
      ]);
    });

    it("revoking cancels every pending notice, deleting removes them", async () => {
      const g = await group(10);
      const revoked = await issue(g, day(30));
      await m.credentials.revokeCredential(org, revoked.id, { reason: "left" });
      expect(await noticesOf(revoked.id)).toEqual([`expired ${day(31)} cancelled`, `reminder ${day(20)} cancelled`]);
      const deleted = await issue(g, day(30));
      await m.credentials.deleteCredential(org, deleted.id);
      expect(await noticesOf(deleted.id)).toEqual([]);
    });

    it("turning the group's setting off cancels its reminders; a new N writes new ones", async () => {
      const g = await group(10);
      const c = await issue(g, day(30));
      await m.groups.updateGroup(org.id, g, { expiryReminderDays: null });
      expect(await noticesOf(c.id)).toEqual([`expired ${day(31)} queued`, `reminder ${day(20)} cancelled`]);
      await m.groups.updateGroup(org.id, g, { expiryReminderDays: 25 });
      expect(await noticesOf(c.id)).toEqual([`expired ${day(31)} queued`, `reminder ${day(5)} queued`, `reminder ${day(20)} cancelled`]);
      expect((await m.groups.getGroup(org.id, g)).expiryReminderDays).toBe(25);
    });
  });

  describe("processing", () => {
    it("a due reminder queues one branded email (escaped, in the group's language, with the renew link) and credential.expiring, once", async () => {
      const g = await group(14, { learningEventUrl: "https://learn.example.com/renew", language: "fr" });
      const c = await issue(g, day(14));
      await drain();
      expect(await noticesOf(c.id)).toEqual([`expired ${day(15)} queued`, `reminder ${day(0)} done`]);
      const emails = await reminderEmails(c.id);
      expect(emails).toHaveLength(1);
      // A reminder is not the credential's own email: the dashboard does not count it as "emailed".
      expect(emails[0]!.kind).toBe("expiry_reminder");
      const { latestCredentialEmails } = await import("../../lib/mail/outbox");
      expect((await latestCredentialEmails(org.id, [c.id])).has(c.id)).toBe(false);
      const email = await m.composition.composeEmail(emails[0]!.composition!, async () => true);
      expect(email.subject).toContain("Safety <course>");
      expect(email.subject).toMatch(/expire le/);
      expect(email.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
      expect(email.html).not.toContain("<b>Lovelace");
      expect(email.html).toContain('href="https://learn.example.com/renew"');
      expect(email.html).toContain(`/credentials/${c.publicId}?recipient=true`);
      expect(email.text).toContain("https://learn.example.com/renew");
      expect(email.text).toContain("Ada <b>Lovelace</b>");
      expect(await events("credential.expiring")).toContain(c.id);
      // Again: nothing more.
      await drain();
      expect(await reminderEmails(c.id)).toHaveLength(1);
      expect((await events("credential.expiring")).filter((id) => id === c.id)).toHaveLength(1);
    });

    it("a recipient without an email: no email, but the event", async () => {
      const c = await issue(await group(3), day(3), "No Mail", null);
      await drain();
      expect(await reminderEmails(c.id)).toHaveLength(0);
      expect(await events("credential.expiring")).toContain(c.id);
    });

    it("the day after the expiry date: credential.expired, no email; never for a revoked credential", async () => {
      const g = await group(null);
      const expired = await issue(g, day(-1));
      const revoked = await issue(g, day(-1));
      await m.credentials.revokeCredential(org, revoked.id, {});
      await drain();
      expect(await noticesOf(expired.id)).toEqual([`expired ${day(0)} done`]);
      expect(await events("credential.expired")).toContain(expired.id);
      expect(await events("credential.expired")).not.toContain(revoked.id);
      expect(await reminderEmails(expired.id)).toHaveLength(0);
    });

    it("a notice no longer owed when its turn comes (changed behind the scheduler's back) is cancelled, not sent", async () => {
      const c = await issue(await group(2), day(2));
      // As if the expiry had moved without the notice following it.
      await m.db().credential.update({ where: { id: c.id }, data: { expiryDate: day(90) } });
      await drain();
      expect(await noticesOf(c.id)).toContain(`reminder ${day(0)} cancelled`);
      expect(await reminderEmails(c.id)).toHaveLength(0);
    });

    it("a claim whose process died is taken again after its lease; the dead claim's late work changes nothing", async () => {
      const c = await issue(await group(1), day(1));
      const now = new Date();
      const first = (await m.notices.claimDueNotices(now, 100)).filter((n) => n.credentialId === c.id);
      expect(first).toHaveLength(1);
      // Within the lease nobody else takes it.
      expect((await m.notices.claimDueNotices(now, 100)).filter((n) => n.credentialId === c.id)).toHaveLength(0);
      const later = new Date(now.getTime() + 61_000);
      const second = (await m.notices.claimDueNotices(later, 100)).filter((n) => n.credentialId === c.id);
      expect(second).toHaveLength(1);
      expect((await m.notices.handleNotice(first[0]!, now)).handled).toBe("lost");
      expect((await m.notices.handleNotice(second[0]!, later)).handled).toBe("done");
      expect((await m.notices.handleNotice(second[0]!, later)).handled).toBe("lost");
      expect(await reminderEmails(c.id)).toHaveLength(1);
    });

    it("two claimers at once never both send: every due reminder is emailed exactly once", async () => {
      const g = await group(4);
      const issued = [];
      for (let i = 0; i < 24; i++) issued.push(await issue(g, day(4), `Person ${i}`, `p${i}@example.com`));
      await Promise.all([drain(), drain(), drain()]);
      for (const c of issued) expect(await reminderEmails(c.id)).toHaveLength(1);
      const ids = await events("credential.expiring");
      for (const c of issued) expect(ids.filter((id) => id === c.id)).toHaveLength(1);
    });
  });
}
