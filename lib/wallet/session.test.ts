// The wallet's emailed links and sessions: hashing, expiry, single use (also when used twice at once),
// sliding expiry and sign-out; and who gets a link (only an email that credentials are addressed to).
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { scratchDatabase } from "../../test/support/db/scratch-database";

/** The request headers next/headers would give a server component. */
const jar = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => jar.headers,
}));
// As behind a TLS proxy: X-Forwarded-Proto (recorded by server.ts under its own name) says https.
process.env.TRUST_PROXY = "1";

await scratchDatabase("wallet-session");

const { db } = await import("../db");
const { createOrganization } = await import("../organizations/service");
const { createDesign } = await import("../designs/service");
const { createGroup } = await import("../groups/service");
const credentials = await import("../credentials/service");
const links = await import("./sign-in-link");
const sessions = await import("./session");

let org: Awaited<ReturnType<typeof createOrganization>>;
let groupId: string;
let n = 0;

beforeAll(async () => {
  org = await createOrganization({ slug: "wallet-org", plan: "premium" });
  const design = await createDesign(org, { name: "D", type: "certificate" });
  groupId = (await createGroup(org.id, { name: "Course", designIds: [design.id] })).id;
});

/** A fresh email with one issued credential addressed to it (in mixed case, as issuers type them). */
async function recipientEmail(): Promise<string> {
  const email = `Ada.${n++}.${Math.random().toString(36).slice(2)}@Example.com`;
  await credentials.createIssueCredential(org, { groupId, recipient: { name: "Ada", email } });
  return email.toLowerCase();
}

async function tokensMailedTo(email: string): Promise<string[]> {
  const mails = await db().emailOutbox.findMany({ where: { toAddress: email }, orderBy: { createdAt: "desc" } });
  return mails.flatMap((m) => {
    const token = /\/wallet\/sign-in\?token=([A-Za-z0-9_%-]+)/.exec(m.text)?.[1];
    return token ? [decodeURIComponent(token)] : [];
  });
}

describe("wallet sign-in links", () => {
  it("are emailed through the outbox as nobody's organization, store only the token's SHA-256, and last 15 minutes", async () => {
    const email = await recipientEmail();
    expect(await links.requestWalletSignInLink({ email: email.toUpperCase(), acceptLanguage: null })).toBe(true);
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail).toMatchObject({ organizationId: null, credentialId: null, status: "queued" });
    expect(mail.text).toContain("15 minutes");
    expect(mail.html).toContain("<a href=");
    const [token] = await tokensMailedTo(email);
    expect(Buffer.from(token!, "base64url")).toHaveLength(32);
    const rows = await db().walletSignInLink.findMany({ where: { email } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(token!).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(15 * 60_000);
  });

  it("are written in the language the request asks for, else the latest credential's group's", async () => {
    const email = await recipientEmail();
    await links.requestWalletSignInLink({ email, acceptLanguage: "fr-CA,fr;q=0.9" });
    const french = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(french.subject).toContain("Votre lien de connexion");
    expect(french.html).toContain('lang="fr"');

    const design = await createDesign(org, { name: "D2", type: "certificate" });
    const german = await createGroup(org.id, { name: "Kurs", designIds: [design.id], language: "de" });
    const other = `de.${n++}@example.com`;
    await credentials.createIssueCredential(org, { groupId: german.id, recipient: { name: "Grete", email: other } });
    await links.requestWalletSignInLink({ email: other, acceptLanguage: null });
    expect((await db().emailOutbox.findFirstOrThrow({ where: { toAddress: other } })).subject).toContain("Anmeldelink");
  });

  it("write nothing for an email no shown credential is addressed to (unknown, or only a draft)", async () => {
    const draftOnly = `draft.${n++}@example.com`;
    await credentials.createCredential(org, { groupId, recipient: { name: "Draft", email: draftOnly } });
    const before = [await db().emailOutbox.count(), await db().walletSignInLink.count()];
    expect(await links.requestWalletSignInLink({ email: "nobody.here@example.com", acceptLanguage: null })).toBe(false);
    expect(await links.requestWalletSignInLink({ email: draftOnly, acceptLanguage: null })).toBe(false);
    expect([await db().emailOutbox.count(), await db().walletSignInLink.count()]).toEqual(before);
  });

  it("work once, even when used twice at once; the email loses the link; expired or made-up links sign nobody in", async () => {
    const email = await recipientEmail();
    const t0 = new Date();
    await links.requestWalletSignInLink({ email, acceptLanguage: null }, t0);
    const [token] = await tokensMailedTo(email);
    expect(await links.walletSignInLinkIsValid(token!)).toBe(true);
    const results = await Promise.all([links.signInWithWalletLink(token!), links.signInWithWalletLink(token!)]);
    expect(results.filter((r) => r?.session.email === email)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(await db().walletSession.count({ where: { email } })).toBe(1);
    expect(await links.walletSignInLinkIsValid(token!)).toBe(false);
    const mail = await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } });
    expect(mail.text).not.toContain(token);
    expect(mail.html).not.toContain(token);

    await links.requestWalletSignInLink({ email, acceptLanguage: null }, t0);
    const [late] = (await tokensMailedTo(email)).filter((t) => t !== token);
    const afterExpiry = new Date(t0.getTime() + 15 * 60_000 + 1);
    expect(await links.walletSignInLinkIsValid(late!, afterExpiry)).toBe(false);
    expect(await links.signInWithWalletLink(late!, afterExpiry)).toBeNull();
    expect(await links.signInWithWalletLink("made-up")).toBeNull();
    expect(await links.signInWithWalletLink("")).toBeNull();
  });

  it("are swept once expired, their emails' bodies with them", async () => {
    const email = await recipientEmail();
    const t0 = new Date();
    await links.requestWalletSignInLink({ email, acceptLanguage: null }, t0);
    const [token] = await tokensMailedTo(email);
    expect(await links.retireExpiredWalletSignInLinks(t0)).toBe(0);
    expect(await links.retireExpiredWalletSignInLinks(new Date(t0.getTime() + 15 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await db().walletSignInLink.count({ where: { email } })).toBe(0);
    expect((await db().emailOutbox.findFirstOrThrow({ where: { toAddress: email } })).text).not.toContain(token);
  });
});

describe("wallet sessions", () => {
  it("store only the token's SHA-256 and are found from the cookie, in a route handler and in a server component", async () => {
    const { session, token } = await sessions.startWalletSession("ada@example.com");
    const row = await db().walletSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const request = new Request("http://localhost/api/wallet/me/credentials", {
      headers: { Cookie: `other=1; cis.wallet-session=${token}` },
    });
    expect(await sessions.walletSessionFromRequest(request)).toEqual({ id: session.id, email: "ada@example.com" });
    jar.headers = new Headers({ Cookie: `__Host-cis.wallet-session=${token}`, "x-cis-forwarded-proto": "https" });
    expect(await sessions.currentWalletSession()).toEqual(session);
    jar.headers = new Headers();
    expect(await sessions.currentWalletSession()).toBeNull();
    expect(
      await sessions.walletSessionFromRequest(new Request("http://localhost/", { headers: { Cookie: "cis.wallet-session=forged" } })),
    ).toBeNull();
  });

  it("over https are read from the __Host- cookie only: a plain-named cookie planted by a sibling subdomain signs nobody in", async () => {
    const { session, token } = await sessions.startWalletSession("fixation@example.com");
    const https = (cookie: string) => new Headers({ Cookie: cookie, "x-cis-forwarded-proto": "https" });
    const request = (cookie: string) => new Request("http://localhost/api/wallet/me", { headers: https(cookie) });
    expect(await sessions.walletSessionFromRequest(request(`cis.wallet-session=${token}`))).toBeNull();
    expect(await sessions.walletSessionFromRequest(request(`__Host-cis.wallet-session=${token}`))).toEqual(session);
    // A planted plain cookie next to the visitor's own does not replace it either.
    expect(await sessions.walletSessionFromRequest(request(`cis.wallet-session=planted; __Host-cis.wallet-session=${token}`))).toEqual(
      session,
    );
    jar.headers = https(`cis.wallet-session=${token}`);
    expect(await sessions.currentWalletSession()).toBeNull();
    jar.headers = new Headers();
    // Over plain http the __Host- name cannot exist (browsers set it over https only): only the plain name counts.
    expect(sessions.walletTokenFromCookieHeader(`__Host-cis.wallet-session=${token}`, false)).toBeNull();
    expect(sessions.walletTokenFromCookieHeader(`cis.wallet-session=${token}`, false)).toBe(token);
  });

  it("end at once when signed out, and ending twice does nothing", async () => {
    const { session, token } = await sessions.startWalletSession("ada@example.com");
    await sessions.endWalletSession(session.id);
    expect(await sessions.walletSessionForToken(token)).toBeNull();
    await expect(sessions.endWalletSession(session.id)).resolves.toBeUndefined();
  });

  it("last 30 days from their last use (moved forward at most once a day), and are swept after", async () => {
    const t0 = new Date();
    const day = 24 * 3600 * 1000;
    const { session, token } = await sessions.startWalletSession("slide@example.com", t0);
    const expiry = async () => (await db().walletSession.findUniqueOrThrow({ where: { id: session.id } })).expiresAt.getTime();
    expect(await expiry()).toBe(t0.getTime() + 30 * day);
    await sessions.walletSessionForToken(token, new Date(t0.getTime() + day / 2));
    expect(await expiry()).toBe(t0.getTime() + 30 * day);
    const later = new Date(t0.getTime() + 20 * day);
    expect(await sessions.walletSessionForToken(token, later)).toEqual(session);
    expect(await expiry()).toBe(later.getTime() + 30 * day);
    const past = new Date(later.getTime() + 30 * day);
    expect(await sessions.walletSessionForToken(token, past)).toBeNull();
    expect(await sessions.retireExpiredWalletSessions(past)).toBeGreaterThanOrEqual(1);
    expect(await db().walletSession.count({ where: { id: session.id } })).toBe(0);
  });

  it("set an HttpOnly, SameSite=Lax cookie of their own, Secure (and __Host-) over https", () => {
    expect(sessions.walletSessionSetCookie("tok", false)).toBe("cis.wallet-session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000");
    expect(sessions.walletSessionSetCookie("tok", true)).toBe(
      "__Host-cis.wallet-session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure",
    );
  });
});
