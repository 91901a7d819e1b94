// The recipient's own list: every shown credential addressed to the email, in every organization,
// newest first, with filters and cursor pages; visibility only for the recipient's own credentials.
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("wallet-recipient-credentials");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const { addPeriod, todayUtc } = await import("../core/dates");
const wallet = await import("./recipient-credentials");
const privacy = await import("./privacy");
const { startWalletSession } = await import("./session");

type Org = Awaited<ReturnType<typeof createOrganization>>;
let acme: Org;
let globex: Org;
const groups = new Map<string, string>();

async function groupOf(org: Org, name: string): Promise<string> {
  const design = await createDesign(org, { name: `${name} design`, type: "certificate" });
  const id = (await createGroup(org.id, { name, designIds: [design.id] })).id;
  groups.set(name, id);
  return id;
}

beforeAll(async () => {
  acme = await createOrganization({ slug: "acme", plan: "premium" });
  globex = await createOrganization({ slug: "globex", plan: "premium" });
  await groupOf(acme, "Acme Course");
  await groupOf(globex, "Globex Badge");
  await db().domainClaim.create({
    data: { organizationId: acme.id, domain: "acme.test", token: "t", verifiedDomain: "acme.test", verifiedAt: new Date() },
  });
});

describe("the recipient's list", () => {
  it("holds every issued, expired and revoked credential of the email in every organization, newest first; no drafts, no scheduled, nobody else's", async () => {
    const email = "Grace@Example.com";
    // Apart by a few milliseconds each: "newest first" is by creation time (ties by id, which is random within one millisecond).
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    const issued = await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "Grace", email },
    });
    await tick();
    const expired = await credentials.createIssueCredential(globex, {
      groupId: groups.get("Globex Badge")!,
      recipient: { name: "Grace", email: "grace@example.com" },
      issueDate: addPeriod(todayUtc(), -2, "year"),
      expiryDate: addPeriod(todayUtc(), -1, "year"),
    });
    await tick();
    const revoked = await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "Grace", email },
    });
    await credentials.revokeCredential(acme, revoked.id, { reason: "Issued by mistake" });
    await credentials.createCredential(acme, { groupId: groups.get("Acme Course")!, recipient: { name: "Grace", email } });
    await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "Grace", email },
      issueDate: addPeriod(todayUtc(), 5, "day"),
    });
    await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "Other", email: "other@example.com" },
    });

    const page = await wallet.listWalletCredentials("grace@example.com", wallet.WalletCredentialsQuery.parse({}));
    expect(page.data.map((c) => c.publicId)).toEqual([revoked.publicId, expired.publicId, issued.publicId]);
    expect(page.pagination).toEqual({ prev: null, next: null });
    const [r, e, i] = page.data;
    expect(Object.keys(i!).sort()).toEqual(
      [
        "publicId",
        "title",
        "issuer",
        "status",
        "revokedAt",
        "revocationReason",
        "issueDate",
        "expiryDate",
        "imageUrl",
        "visibility",
      ].sort(),
    );
    expect(i).toMatchObject({
      title: "Acme Course",
      issuer: { name: acme.name, domain: "acme.test" },
      status: "issued",
      revokedAt: null,
      visibility: "public",
    });
    expect(i!.imageUrl).toMatch(/\/previews\/[0-9a-f]{40}\.png$/);
    expect(e).toMatchObject({ title: "Globex Badge", issuer: { name: globex.name, domain: null }, status: "expired" });
    expect(r).toMatchObject({ status: "issued", revocationReason: "Issued by mistake" });
    expect(r!.revokedAt).not.toBeNull();

    const q = (extra: Record<string, string>) =>
      wallet.listWalletCredentials("grace@example.com", wallet.WalletCredentialsQuery.parse(extra));
    expect((await q({ status: "revoked" })).data.map((c) => c.publicId)).toEqual([revoked.publicId]);
    expect((await q({ status: "expired" })).data.map((c) => c.publicId)).toEqual([expired.publicId]);
    expect((await q({ status: "issued" })).data.map((c) => c.publicId)).toEqual([issued.publicId]);
    expect((await q({ issuer: "globex" })).data.map((c) => c.publicId)).toEqual([expired.publicId]);
    expect((await q({ issuer: acme.id })).data.map((c) => c.publicId)).toEqual([revoked.publicId, issued.publicId]);
    expect((await q({ issuer: "nobody" })).data).toEqual([]);
    expect((await wallet.walletIssuers("grace@example.com")).map((o) => o.slug).sort()).toEqual(["acme", "globex"]);
  });

  it("pages with cursors, newest first, without repeats or gaps", async () => {
    const email = "pages@example.com";
    const made: string[] = [];
    for (let k = 0; k < 5; k++)
      made.unshift(
        (await credentials.createIssueCredential(acme, { groupId: groups.get("Acme Course")!, recipient: { name: "P", email } })).publicId,
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await wallet.listWalletCredentials(
        email,
        wallet.WalletCredentialsQuery.parse({ limit: "2", ...(cursor ? { cursor } : {}) }),
      );
      seen.push(...page.data.map((c) => c.publicId));
      cursor = page.pagination.next ?? undefined;
    } while (cursor);
    // Credentials made in the same millisecond are ordered by id: compare with the whole list in one page.
    const whole = await wallet.listWalletCredentials(email, wallet.WalletCredentialsQuery.parse({}));
    expect(seen).toEqual(whole.data.map((c) => c.publicId));
    expect([...seen].sort()).toEqual([...made].sort());
    await expect(wallet.listWalletCredentials(email, wallet.WalletCredentialsQuery.parse({ cursor: "forged" }))).rejects.toMatchObject({
      code: "validation_error",
    });
    expect(wallet.WalletCredentialsQuery.safeParse({ status: "draft" }).success).toBe(false);
    expect(wallet.WalletCredentialsQuery.safeParse({ other: "1" }).success).toBe(false);
  });
});

describe("visibility", () => {
  it("is the recipient's to change; another's credential or an unknown one is not found", async () => {
    const mine = await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "M", email: "mine@example.com" },
    });
    const theirs = await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "T", email: "theirs@example.com" },
    });
    expect((await wallet.setWalletVisibility("mine@example.com", mine.publicId, "private")).visibility).toBe("private");
    await expect(wallet.setWalletVisibility("mine@example.com", theirs.publicId, "private")).rejects.toMatchObject({ code: "not_found" });
    await expect(wallet.setWalletVisibility("mine@example.com", "00000000-0000-4000-8000-000000000000", "private")).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(wallet.setWalletVisibility("mine@example.com", "not-a-uuid", "private")).rejects.toMatchObject({ code: "not_found" });
    expect((await db().credential.findUniqueOrThrow({ where: { id: theirs.id } })).visibility).toBe("public");

    // A private credential is hidden from everyone but its signed-in recipient, previews included.
    const { token } = await startWalletSession("mine@example.com");
    const { token: stranger } = await startWalletSession("theirs@example.com");
    expect(await privacy.credentialAccessByPublicId(mine.publicId, null)).toBe("hidden");
    expect(await privacy.credentialAccessByPublicId(mine.publicId, stranger)).toBe("hidden");
    expect(await privacy.credentialAccessByPublicId(mine.publicId, token)).toBe("recipient");
    expect(await privacy.credentialAccessByPublicId(theirs.publicId, null)).toBe("public");
    const [item] = (await wallet.listWalletCredentials("mine@example.com", wallet.WalletCredentialsQuery.parse({}))).data;
    const digest = /\/previews\/([0-9a-f]{40})\.png$/.exec(item!.imageUrl!)![1]!;
    expect(await privacy.previewAccess(digest, null)).toBe("hidden");
    expect(await privacy.previewAccess(digest, token)).toBe("recipient");
    await wallet.setWalletVisibility("mine@example.com", mine.publicId, "public");
    expect(await privacy.previewAccess(digest, null)).toBe("public");
  });

  it("is the recipient's choice, not an edit of the credential: the issuer's updatedAt stays as it was", async () => {
    const credential = await credentials.createIssueCredential(acme, {
      groupId: groups.get("Acme Course")!,
      recipient: { name: "U", email: "unchanged@example.com" },
    });
    const before = (await db().credential.findUniqueOrThrow({ where: { id: credential.id } })).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await wallet.setWalletVisibility("unchanged@example.com", credential.publicId, "private");
    const after = await db().credential.findUniqueOrThrow({ where: { id: credential.id } });
    expect(after.visibility).toBe("private");
    expect(after.updatedAt.toISOString()).toBe(before.toISOString());
  });
});
