import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("credentials");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const service = await import("./service");
const { addPeriod, todayUtc } = await import("../core/dates");
const { deliverDueEmails } = await import("../mail/worker");

type Org = { id: string; slug: string; name: string; plan: string; monthlyIssueQuota: number | null };
let premium: Org;
let groupId: string;

beforeAll(async () => {
  premium = await createOrganization({ slug: "premium", plan: "premium" });
  const design = await createDesign(premium, { name: "D", type: "certificate" });
  groupId = (await createGroup(premium.id, { name: "Course", designIds: [design.id], expiryPeriod: { amount: 1, unit: "month" } })).id;
});

describe("scheduled credentials", () => {
  it("are issued on their date, and the email they were created to send goes out then", async () => {
    const tomorrow = addPeriod(todayUtc(), 1, "day");
    const credential = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Future Person", email: "future@example.com" },
      issueDate: tomorrow,
    });
    expect(credential.status).toBe("scheduled");
    expect(credential.expiryDate).toBe(addPeriod(tomorrow, 1, "month"));
    expect(await db().emailOutbox.count({ where: { credentialId: credential.id } })).toBe(0);

    expect(await service.promoteDueScheduledCredentials(new Date())).toBe(0);
    const dayAfter = new Date(Date.now() + 36 * 3600 * 1000);
    expect(await service.promoteDueScheduledCredentials(dayAfter)).toBe(1);
    expect((await db().credential.findUniqueOrThrow({ where: { id: credential.id } })).status).toBe("issued");
    expect(await db().emailOutbox.count({ where: { credentialId: credential.id } })).toBe(1);
    const sent: { to: string; text: string }[] = [];
    await deliverDueEmails({ deliver: async (m) => (sent.push(m), "test") });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`/credentials/${credential.publicId}?recipient=true`);
    // Promoting again does nothing and sends nothing twice.
    expect(await service.promoteDueScheduledCredentials(dayAfter)).toBe(0);
    expect(await db().emailOutbox.count({ where: { credentialId: credential.id } })).toBe(1);
  });

  it("moved to today by a PATCH, are issued at once with their email (not at the scheduler's next round)", async () => {
    const inAWeek = addPeriod(todayUtc(), 7, "day");
    const withMail = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Moved", email: "moved@example.com" },
      issueDate: inAWeek,
    });
    const quiet = await service.createIssueCredential(premium, {
      groupId,
      recipient: { name: "Quiet", email: "quiet@example.com" },
      issueDate: inAWeek,
    });

    // Moved to another future date: still scheduled, nothing sent.
    await service.updateCredential(premium, withMail.id, { issueDate: addPeriod(todayUtc(), 3, "day") });
    expect((await db().credential.findUniqueOrThrow({ where: { id: withMail.id } })).status).toBe("scheduled");
    expect(await db().emailOutbox.count({ where: { credentialId: withMail.id } })).toBe(0);

    const moved = await service.updateCredential(premium, withMail.id, { issueDate: todayUtc() });
    expect(moved.status).toBe("issued");
    expect((await db().credential.findUniqueOrThrow({ where: { id: withMail.id } })).status).toBe("issued");
    expect(await db().emailOutbox.count({ where: { credentialId: withMail.id } })).toBe(1);

    // Issued without a send: issued now, and no email.
    expect((await service.updateCredential(premium, quiet.id, { issueDate: todayUtc() })).status).toBe("issued");
    expect(await db().emailOutbox.count({ where: { credentialId: quiet.id } })).toBe(0);

    // The scheduler finds nothing left to do, and a later PATCH sends nothing again.
    expect(await service.promoteDueScheduledCredentials(new Date())).toBe(0);
    await service.updateCredential(premium, withMail.id, { issueDate: addPeriod(todayUtc(), -1, "day") });
    expect(await db().emailOutbox.count({ where: { credentialId: withMail.id } })).toBe(1);
  });

  it("one credential that cannot be promoted does not hold back the others", async () => {
    const tomorrow = addPeriod(todayUtc(), 1, "day");
    const broken = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Broken", email: "broken@example.com" },
      issueDate: tomorrow,
    });
    const fine = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Fine", email: "fine@example.com" },
      issueDate: tomorrow,
    });
    // A row the email step cannot read (its stored attributes are not JSON) fails inside its own transaction.
    await db().credential.update({ where: { id: broken.id }, data: { customAttributes: "{not json" } });
    const dayAfter = new Date(Date.now() + 36 * 3600 * 1000);
    expect(await service.promoteDueScheduledCredentials(dayAfter)).toBe(1);
    expect((await db().credential.findUniqueOrThrow({ where: { id: fine.id } })).status).toBe("issued");
    expect(await db().emailOutbox.count({ where: { credentialId: fine.id } })).toBe(1);
    // The broken one was rolled back whole: still scheduled, nothing queued, tried again next round.
    expect((await db().credential.findUniqueOrThrow({ where: { id: broken.id } })).status).toBe("scheduled");
    expect(await db().emailOutbox.count({ where: { credentialId: broken.id } })).toBe(0);
  });
});

describe("a revoked scheduled credential", () => {
  it("is not sent when its date comes: the send it was created with is cancelled by the revoke", async () => {
    const tomorrow = addPeriod(todayUtc(), 1, "day");
    const credential = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Revoked Later", email: "revoked@example.com" },
      issueDate: tomorrow,
    });
    const revoked = await service.revokeCredential(premium, credential.id, { reason: "Entered by mistake" });
    expect(revoked).toEqual(
      expect.objectContaining({ status: "scheduled", revocationReason: "Entered by mistake", revokedAt: expect.any(String) }),
    );

    const dayAfter = new Date(Date.now() + 36 * 3600 * 1000);
    await service.promoteDueScheduledCredentials(dayAfter);
    expect(await db().emailOutbox.count({ where: { credentialId: credential.id } })).toBe(0);
    // Promoted or not, it reads as revoked, and stays so.
    expect((await service.getCredential(premium, credential.id)).revokedAt).toBe(revoked.revokedAt);
  });
});

describe("the free plan's quota under concurrency (SQLite)", () => {
  it("never issues more than the quota, whatever the interleaving", async () => {
    const free = await createOrganization({ slug: "free", plan: "free" });
    await db().organization.update({ where: { id: free.id }, data: { monthlyIssueQuota: 4 } });
    const org = { ...free, monthlyIssueQuota: 4 };
    const design = await createDesign(org, { name: "D", type: "badge" });
    const group = await createGroup(org.id, { name: "G", designIds: [design.id] });
    const drafts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => service.createCredential(org, { groupId: group.id, recipient: { name: `P${i}` } })),
    );
    const outcomes = await Promise.allSettled(drafts.map((d) => service.issueCredential(org, d.id)));
    const codes = outcomes.map((o) => (o.status === "fulfilled" ? 200 : (o.reason as { status: number }).status));
    expect(codes.filter((c) => c === 200)).toHaveLength(4);
    expect(codes.filter((c) => c === 402)).toHaveLength(6);
    expect(await db().credential.count({ where: { organizationId: org.id, status: "issued" } })).toBe(4);
    expect((await db().monthlyUsage.findFirstOrThrow({ where: { organizationId: org.id } })).issued).toBe(4);
  });
});

describe("the issuing transaction writes rows; the mail worker writes the email", () => {
  type Sent = { to: string; subject: string; html: string; text: string };
  async function deliverAll(): Promise<Sent[]> {
    const sent: Sent[] = [];
    await deliverDueEmails({ deliver: async (m) => (sent.push(m), "test") });
    return sent;
  }

  it("keeps the email's inputs on the outbox row and composes nothing until it is sent", async () => {
    const credential = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Ada <b>Lovelace</b>", email: "ada-row@example.com" },
    });
    const [row] = await db().emailOutbox.findMany({ where: { credentialId: credential.id } });
    expect(row).toMatchObject({ subject: "", html: "", text: "", status: "queued" });
    const composition = JSON.parse(row!.composition!) as {
      values: Record<string, string>;
      certificate: { digest: string; revisionId: string } | null;
    };
    expect(composition.values["recipient.name"]).toBe("Ada <b>Lovelace</b>");
    expect(composition.certificate?.digest).toMatch(/^[0-9a-f]{16,}$/);
    // The certificate's preview version was written by the same transaction.
    expect(await db().previewVersion.count({ where: { digest: composition.certificate!.digest, credentialId: credential.id } })).toBe(1);

    const sent = (await deliverAll()).filter((m) => m.to === "ada-row@example.com");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    expect(sent[0]!.html).toContain(`/previews/${composition.certificate!.digest}.png`);
    expect(sent[0]!.text).toContain(`/credentials/${credential.publicId}?recipient=true`);
    // What the dashboard lists is the subject the recipient got.
    const { credentialEmails } = await import("../mail/outbox");
    expect((await credentialEmails(premium.id, credential.id))[0]!.subject).toBe(sent[0]!.subject);
  });

  it("leaves the certificate image out when the worker finds its text cannot be drawn", async () => {
    // U+E000 (private use): no bundled font or emoji image draws it.
    const credential = await service.createIssueSendCredential(premium, {
      groupId,
      recipient: { name: "Private \uE000 Use", email: "pua@example.com" },
    });
    const [row] = await db().emailOutbox.findMany({ where: { credentialId: credential.id } });
    const digest = (JSON.parse(row!.composition!) as { certificate: { digest: string } }).certificate.digest;
    const sent = (await deliverAll()).filter((m) => m.to === "pua@example.com");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.html).not.toContain(`/previews/${digest}`);
    expect(sent[0]!.text).toContain(`/credentials/${credential.publicId}?recipient=true`);
  });
});
