import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

await scratchDatabase("sign-in-link");

const { db } = await import("../db");
const { signUp } = await import("./service");
const links = await import("./sign-in-link");

async function newAccount() {
  const email = `ada.${Math.random().toString(36).slice(2)}@example.com`;
  const { userId } = await signUp(
    { name: "Ada <Lovelace>", email, password: "correct horse battery", organizationName: "Org" },
    { clientAddress: `test-${Math.random()}` },
  );
  return { userId, email };
}

/** The tokens in the emails to `email`, newest first, read back from the outbox as the recipient would. */
async function tokensMailedTo(email: string): Promise<string[]> {
  const mails = await db().emailOutbox.findMany({ where: { toAddress: email }, orderBy: { createdAt: "desc" } });
  return mails.flatMap((m) => {
    const token = /\/signin\/link\?token=([A-Za-z0-9_%-]+)/.exec(m.text)?.[1];
    return token ? [decodeURIComponent(token)] : [];
  });
}

describe("emailed sign-in links", () => {
  it("are emailed through the outbox as nobody's organization; only the token's SHA-256 is stored; 15 minutes", async () => {
    const { userId, email } = await newAccount();
    await links.requestSignInLink({ email: email.toUpperCase() });
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail).toMatchObject({ organizationId: null, credentialId: null, status: "queued", subject: "Your sign-in link" });
    expect(mail.text).toContain("within 15 minutes");
    expect(mail.html).toContain("Ada &lt;Lovelace&gt;");
    const [token] = await tokensMailedTo(email);
    expect(Buffer.from(token!, "base64url")).toHaveLength(32);
    const rows = await db().signInLink.findMany({ where: { userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(token!).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(15 * 60_000);
  });

  it("write nothing for an email no account has", async () => {
    const [mails, rows] = [await db().emailOutbox.count(), await db().signInLink.count()];
    await expect(links.requestSignInLink({ email: "nobody.here@example.com" })).resolves.toBeUndefined();
    expect([await db().emailOutbox.count(), await db().signInLink.count()]).toEqual([mails, rows]);
  });

  it("go out at most 3 at once per email, and a newer link leaves the older ones working", async () => {
    const { userId, email } = await newAccount();
    for (let i = 0; i < 5; i++) await links.requestSignInLink({ email });
    const tokens = await tokensMailedTo(email);
    expect(tokens).toHaveLength(3);
    expect(await links.signInLinkIsValid(tokens[2]!)).toBe(true);
    expect(await links.redeemSignInLink(tokens[2]!)).toMatchObject({ id: userId });
    expect(await links.redeemSignInLink(tokens[0]!)).toMatchObject({ id: userId });
  });

  it("work once, even when used twice at once; the email loses the link; an expired or made-up link signs nobody in", async () => {
    const { userId, email } = await newAccount();
    const t0 = new Date();
    await links.requestSignInLink({ email }, t0);
    const [token] = await tokensMailedTo(email);
    const results = await Promise.all([links.redeemSignInLink(token!), links.redeemSignInLink(token!)]);
    expect(results.filter((r) => r?.id === userId)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(await links.signInLinkIsValid(token!)).toBe(false);
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail.text).not.toContain(token);
    expect(mail.html ?? "").not.toContain(token);

    await links.requestSignInLink({ email }, t0);
    const [late] = (await tokensMailedTo(email)).filter((t) => t !== token);
    expect(await links.redeemSignInLink(late!, new Date(t0.getTime() + 15 * 60_000 + 1))).toBeNull();
    expect(await links.redeemSignInLink("made-up")).toBeNull();
    expect(await links.redeemSignInLink("")).toBeNull();
  });

  it("once expired, are removed with the copy in their email by the background sweep, with nobody asking for another", async () => {
    const { userId, email } = await newAccount();
    await links.requestSignInLink({ email });
    const [token] = await tokensMailedTo(email);
    const later = new Date(Date.now() + 15 * 60_000 + 1000);
    expect(await links.retireExpiredSignInLinks(new Date())).toBe(0);
    expect(await links.retireExpiredSignInLinks(later)).toBeGreaterThanOrEqual(1);
    expect(await db().signInLink.count({ where: { userId } })).toBe(0);
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail.text).not.toContain(token!);
    expect(mail.html).not.toContain(token!);
  });
});
