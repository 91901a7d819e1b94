// The issuing funnel's counting rules (lib/interactions/funnel.ts), the same tests on SQLite
// (lib/interactions/funnel.test.ts) and PostgreSQL (*.postgres.test.ts). Call after the test database
// is set up; modules are imported lazily so they see it.
import { beforeAll, describe, expect, it } from "vitest";

type Org = { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };

export function funnelContract() {
  let m: Awaited<ReturnType<typeof load>>;
  let seq = 0;

  async function load() {
    const { db } = await import("../../lib/db");
    return {
      db,
      funnel: await import("../../lib/interactions/funnel"),
      period: await import("../../lib/interactions/period"),
      credentials: await import("../../lib/credentials/service"),
      organizations: await import("../../lib/organizations/service"),
      designs: await import("../../lib/designs/service"),
      groups: await import("../../lib/groups/service"),
      interactions: await import("../../lib/interactions/service"),
      wallet: await import("../../lib/wallet/events"),
      mailOutcome: await import("../../lib/mail/credential-outcome"),
    };
  }

  beforeAll(async () => {
    m = await load();
  });

  async function organization(name: string) {
    const org: Org = await m.organizations.createOrganization({ slug: `${name}-${Date.now()}-${seq++}`, plan: "premium" });
    const design = await m.designs.createDesign(org, { name: "D", type: "certificate" });
    const group = async (groupName: string) => (await m.groups.createGroup(org.id, { name: groupName, designIds: [design.id] })).id;
    return { org, group };
  }

  /** An issued credential, issued at `issuedAt`. */
  async function issued(org: Org, groupId: string, email: string | null, issuedAt: string) {
    const c = await m.credentials.createIssueCredential(org, {
      groupId,
      recipient: { name: "Ada Lovelace", ...(email ? { email } : {}) },
    });
    await m.db().credential.update({ where: { id: c.id }, data: { issuedAt: new Date(issuedAt) } });
    return c.id;
  }

  async function event(org: Org, credentialId: string, eventType: string, triggeredBy: "recipient" | "guest", times = 1) {
    // Through the API's service: the funnel's flags are written with the event.
    for (let i = 0; i < times; i++)
      await m.interactions.createInteraction(org.id, {
        credentialId,
        eventType: eventType as never,
        triggeredBy,
        triggeredAt: new Date().toISOString(),
      });
  }

  async function email(org: Org, credentialId: string, status: string, lastError: string | null = null, kind = "credential") {
    const id = `out_${seq++}_${Date.now()}`;
    await m.db().emailOutbox.create({
      data: {
        id,
        organizationId: org.id,
        credentialId,
        messageId: `<${id}@test>`,
        toAddress: "someone@example.com",
        subject: "",
        html: "",
        text: "",
        kind,
        status,
        lastError,
      },
    });
    // As the mail worker does when it writes an outcome (its own tests check that it does).
    await m.mailOutcome.refreshMailOutcomes(m.db(), { outboxIds: [id] });
  }

  const allTime = () => ({ preset: "all" as const, from: null, to: "2030-12-31" });
  const custom = (from: string, to: string) => ({ preset: "custom" as const, from, to });

  it("a credential opened many times by its recipient counts once, in credentials and in recipients", async () => {
    const { org, group } = await organization("reloads");
    const g = await group("Course");
    const a = await issued(org, g, "ada@example.com", "2026-03-01T10:00:00.000Z");
    await event(org, a, "credential_viewed", "recipient", 29);
    const f = await m.funnel.issuingFunnel(org.id, allTime());
    expect(f.overall.credentials).toMatchObject({ issued: 1, opened: 1 });
    expect(f.overall.recipients).toMatchObject({ issued: 1, opened: 1 });
  });

  it("recipient and guest: only the recipient opens, only a guest verifies, a share counts whoever made it", async () => {
    const { org, group } = await organization("actors");
    const g = await group("Course");
    const viewedByGuest = await issued(org, g, "a@example.com", "2026-03-01T10:00:00.000Z");
    const verifiedByRecipient = await issued(org, g, "b@example.com", "2026-03-01T10:00:00.000Z");
    const verifiedByGuest = await issued(org, g, "c@example.com", "2026-03-01T10:00:00.000Z");
    await event(org, viewedByGuest, "credential_viewed", "guest", 3);
    await event(org, verifiedByRecipient, "credential_verified", "recipient");
    await event(org, verifiedByGuest, "credential_verified", "guest", 4);
    await event(org, verifiedByGuest, "credential_added_to_linkedin_profile", "recipient");
    await event(org, verifiedByRecipient, "credential_shared_to_facebook", "recipient", 2);
    await event(org, viewedByGuest, "credential_downloaded", "recipient");
    const f = await m.funnel.issuingFunnel(org.id, allTime());
    expect(f.overall.credentials).toEqual({ issued: 3, delivered: 0, opened: 0, shared: 2, verified: 1 });
    expect(f.overall.recipients).toEqual({ issued: 3, delivered: 0, opened: 0, shared: 2, verified: 1 });
  });

  it("the wallet page's own events count too, and concurrent first events of one credential keep every flag", async () => {
    const { org, group } = await organization("wallet");
    const g = await group("Course");
    const id = await issued(org, g, "ada@example.com", "2026-03-01T10:00:00.000Z");
    const { publicId } = await m.db().credential.findUniqueOrThrow({ where: { id }, select: { publicId: true } });
    await Promise.all([
      m.wallet.recordWalletEvent({ publicId, eventType: "credential_viewed", triggeredBy: "recipient" }, null),
      m.wallet.recordWalletEvent({ publicId, eventType: "credential_shared_to_linkedin", triggeredBy: "recipient" }, null),
      m.wallet.recordWalletEvent({ publicId, eventType: "credential_verified", triggeredBy: "guest" }, null),
      m.wallet.recordWalletEvent({ publicId, eventType: "credential_viewed", triggeredBy: "recipient" }, null),
    ]);
    const f = await m.funnel.issuingFunnel(org.id, allTime());
    expect(f.overall.credentials).toMatchObject({ issued: 1, opened: 1, shared: 1, verified: 1 });
    expect(await m.db().credentialEngagement.count({ where: { credentialId: id } })).toBe(1);
  });

  it("people are distinct recipients: two credentials of one email address are one person", async () => {
    const { org, group } = await organization("people");
    const [g1, g2] = [await group("One"), await group("Two")];
    const a1 = await issued(org, g1, "Ada@Example.com", "2026-03-01T10:00:00.000Z");
    const a2 = await issued(org, g2, "ada@example.com", "2026-03-02T10:00:00.000Z");
    const b = await issued(org, g1, "bob@example.com", "2026-03-02T10:00:00.000Z");
    for (const id of [a1, a2, b]) await event(org, id, "credential_viewed", "recipient");
    const f = await m.funnel.issuingFunnel(org.id, allTime());
    expect(f.overall.credentials).toMatchObject({ issued: 3, opened: 3 });
    expect(f.overall.recipients).toMatchObject({ issued: 2, opened: 2 });
    expect(f.perTemplate.map((t) => [t.name, t.credentials.issued, t.recipients.issued])).toEqual([
      ["One", 2, 2],
      ["Two", 1, 1],
    ]);
  });

  it("the period is of issue moments, UTC days with both ends included; drafts never count", async () => {
    const { org, group } = await organization("bounds");
    const g = await group("Course");
    await issued(org, g, "before@example.com", "2026-03-31T23:59:59.999Z");
    const first = await issued(org, g, "first@example.com", "2026-04-01T00:00:00.000Z");
    const last = await issued(org, g, "last@example.com", "2026-04-30T23:59:59.999Z");
    await issued(org, g, "after@example.com", "2026-05-01T00:00:00.000Z");
    await m.credentials.createCredential(org, { groupId: g, recipient: { name: "Draft", email: "draft@example.com" } });
    // Signals of credentials outside the period do not count, whenever they happened.
    await event(org, first, "credential_viewed", "recipient");
    await event(org, last, "credential_verified", "guest");
    const f = await m.funnel.issuingFunnel(org.id, custom("2026-04-01", "2026-04-30"));
    expect(f.overall.credentials).toMatchObject({ issued: 2, opened: 1, verified: 1 });
    expect(f.series).toHaveLength(30);
    expect(f.bucket).toBe("day");
    expect(f.series[0]).toEqual({ start: "2026-04-01", credentials: { issued: 1, delivered: 0, opened: 1, shared: 0, verified: 0 } });
    expect(f.series[29]).toEqual({ start: "2026-04-30", credentials: { issued: 1, delivered: 0, opened: 0, shared: 0, verified: 1 } });
    const all = await m.funnel.issuingFunnel(org.id, allTime());
    expect(all.overall.credentials.issued).toBe(4);
    expect(all.from).toBe("2026-03-31");
  });

  it("another organization's credentials, emails and events are never counted", async () => {
    const mine = await organization("mine");
    const theirs = await organization("theirs");
    const g = await mine.group("Mine");
    const tg = await theirs.group("Theirs");
    const own = await issued(mine.org, g, "ada@example.com", "2026-03-01T10:00:00.000Z");
    const other = await issued(theirs.org, tg, "ada@example.com", "2026-03-01T10:00:00.000Z");
    await event(theirs.org, other, "credential_viewed", "recipient");
    await event(theirs.org, other, "credential_verified", "guest");
    await email(theirs.org, other, "sent");
    const f = await m.funnel.issuingFunnel(mine.org.id, allTime());
    expect(f.overall.credentials).toEqual({ issued: 1, delivered: 0, opened: 0, shared: 0, verified: 0 });
    expect(f.perTemplate.map((t) => t.groupId)).toEqual([g]);
    expect(own).toBeTruthy();
  });

  it("email outcomes: delivered, bounced and failed named apart, each credential counted once", async () => {
    const { org, group } = await organization("mail");
    const g = await group("Course");
    const at = "2026-03-01T10:00:00.000Z";
    const delivered = await issued(org, g, "d@example.com", at);
    const bouncedThenDelivered = await issued(org, g, "r@example.com", at);
    const bounced = await issued(org, g, "b@example.com", at);
    const failed = await issued(org, g, "f@example.com", at);
    const waiting = await issued(org, g, "w@example.com", at);
    const reminderOnly = await issued(org, g, "x@example.com", at);
    await issued(org, g, null, at); // never emailed
    await email(org, delivered, "sent");
    await email(org, delivered, "sent"); // sent again: still one delivered credential
    await email(org, bouncedThenDelivered, "failed", "EENVELOPE SMTP 550 during RCPT TO");
    await email(org, bouncedThenDelivered, "sent");
    await email(org, bounced, "failed", "EMESSAGE SMTP 554 during DATA");
    await email(org, failed, "failed", "ETIMEDOUT no outcome within 30 s");
    await email(org, waiting, "queued");
    await email(org, reminderOnly, "sent", null, "expiry_reminder");
    const f = await m.funnel.issuingFunnel(org.id, allTime());
    expect(f.overall.credentials).toMatchObject({ issued: 7, delivered: 2 });
    expect(f.overall.email).toEqual({ delivered: 2, bounced: 1, failed: 1, waiting: 1, notSent: 2 });
  });

  it("a long period is drawn per week (weeks start on Monday), all of it summing to the funnel", async () => {
    const { org, group } = await organization("weeks");
    const g = await group("Course");
    for (const day of ["2026-01-05", "2026-01-11", "2026-01-12", "2026-06-30"]) await issued(org, g, null, `${day}T12:00:00.000Z`);
    const f = await m.funnel.issuingFunnel(org.id, custom("2026-01-01", "2026-06-30"));
    expect(f.bucket).toBe("week");
    expect(f.series[0]!.start).toBe("2025-12-29");
    const byStart = Object.fromEntries(f.series.map((p) => [p.start, p.credentials.issued]));
    expect(byStart).toMatchObject({ "2026-01-05": 2, "2026-01-12": 1, "2026-06-29": 1 });
    expect(f.series.reduce((n, p) => n + p.credentials.issued, 0)).toBe(f.overall.credentials.issued);
  });

  describe("periods", () => {
    const now = new Date("2026-05-30T22:00:00Z");
    it("presets end today (UTC) and include it; the default is the last 30 days", () => {
      expect(m.period.parsePeriod({ period: "7d" }, now)).toEqual({ period: { preset: "7d", from: "2026-05-24", to: "2026-05-30" } });
      expect(m.period.parsePeriod({}, now)).toEqual({ period: { preset: "30d", from: "2026-05-01", to: "2026-05-30" } });
      expect(m.period.parsePeriod({ period: "all" }, now)).toEqual({ period: { preset: "all", from: null, to: "2026-05-30" } });
      expect(m.period.parsePeriod({ period: "nonsense" }, now)).toMatchObject({ period: { preset: "30d" } });
    });
    it("a custom period names each bad field", () => {
      expect(m.period.parsePeriod({ from: "2026-02-30", to: "x" }, now)).toEqual({
        errors: [
          { field: "from", message: "Enter a start date (YYYY-MM-DD)." },
          { field: "to", message: "Enter an end date (YYYY-MM-DD)." },
        ],
      });
      expect(m.period.parsePeriod({ from: "2026-05-02", to: "2026-05-01" }, now)).toEqual({
        errors: [{ field: "from", message: "The start date must not be after the end date." }],
      });
    });
  });
}
