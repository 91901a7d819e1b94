import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("latest-emails");

const { db } = await import("../db");
const { enqueueEmail, latestCredentialEmails } = await import("./outbox");
const { deliverDueEmails } = await import("./worker");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const { createCredential } = await import("../credentials/service");

async function credentialsOf(slug: string, count: number) {
  const org = await createOrganization({ slug, plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  const group = await createGroup(org.id, { name: "Course", designIds: [design.id] });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createCredential(org, { groupId: group.id, recipient: { name: `P${i}` } })).id);
  return { org, ids };
}

async function queue(organizationId: string, credentialId: string, to: string) {
  return db().$transaction((tx) =>
    enqueueEmail(tx, { organizationId, credentialId, to, template: { subject: "Hi", html: null, text: null }, values: {} }),
  );
}

describe("latestCredentialEmails", () => {
  it("the newest email of each credential asked for, of this organization only, in one answer", async () => {
    const { org, ids } = await credentialsOf("latest", 3);
    const [a, b, none] = ids as [string, string, string];
    const {
      org: other,
      ids: [c],
    } = await credentialsOf("latest-other", 1);
    await queue(org.id, a, "a@example.com");
    const delivered = { deliver: async () => "test" };
    expect(await deliverDueEmails(delivered)).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    await queue(org.id, a, "a@example.com"); // sent again: the newer one is still queued
    await queue(org.id, b, "b@example.com");
    await db().emailOutbox.updateMany({ where: { credentialId: b }, data: { status: "failed", attempts: 8 } });
    await queue(other.id, c!, "c@example.com");

    const latest = await latestCredentialEmails(org.id, [a, b, c!, none]);
    expect([...latest.keys()].sort()).toEqual([a, b].sort());
    expect(latest.get(a)).toMatchObject({ status: "queued", attempts: 0, sentAt: null });
    expect(latest.get(b)).toMatchObject({ status: "failed", attempts: 8 });
    expect(await latestCredentialEmails(org.id, [])).toEqual(new Map());
  });
});
