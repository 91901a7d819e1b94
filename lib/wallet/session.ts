// A recipient's wallet session: who is signed in to {WALLET_URL}/wallet, for the wallet's pages, its
// JSON routes (lib/api/wallet-endpoint.ts) and the credential pages that show a signed-in recipient
// their own view. There is no account: a session belongs to an email address, proven by an emailed
// link (lib/wallet/sign-in-link.ts). The cookie is the wallet's own (never the dashboard's), HttpOnly,
// SameSite=Lax, Secure over https, and holds a random token; the database keeps only the token's
// SHA-256, so a copy of the table signs nobody in. Deleting the row (sign-out) ends the session at
// once. A session lasts 30 days from its last use.
import { createHash, randomBytes } from "node:crypto";
import { config } from "../config";
import { db } from "../db";
import { newId } from "../db/ids";
import { clientConnection } from "../net/client-connection";

/** A signed-in recipient: `email` is lower-cased, as Recipient.emailNormalized stores it. */
export type WalletSession = { id: string; email: string };

export const WALLET_SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** The expiry moves forward at most once a day: a busy recipient does not write the row on every request. */
const SLIDE_AFTER_MS = 24 * 3600 * 1000;

/** The cookie's name; `__Host-` (Secure, whole site, no Domain) when the site is served over https. */
export function walletSessionCookieName(secure: boolean): string {
  return secure ? "__Host-cis.wallet-session" : "cis.wallet-session";
}

/** Tokens are 32 random bytes, so a fast hash is enough: nobody can guess one to try against it. */
export function hashWalletToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newWalletToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether the request reached us over https (through a trusted proxy's X-Forwarded-Proto when TRUST_PROXY is set). */
export function requestIsHttps(headers: Headers): boolean {
  return clientConnection(headers, config().trustProxy).scheme === "https";
}

/** Starts a session for `email` (normalized by the caller) and returns it with the token for its cookie. */
export async function startWalletSession(
  email: string,
  now = new Date(),
): Promise<{ session: WalletSession; token: string; expiresAt: Date }> {
  const token = newWalletToken();
  const expiresAt = new Date(now.getTime() + WALLET_SESSION_LIFETIME_MS);
  const id = newId("wses");
  await db().walletSession.create({ data: { id, email, tokenHash: hashWalletToken(token), createdAt: now, expiresAt } });
  return { session: { id, email }, token, expiresAt };
}

/** The live session a cookie token names, or null; moves its expiry forward when a day has passed since. */
export async function walletSessionForToken(token: string | null | undefined, now = new Date()): Promise<WalletSession | null> {
  if (!token || token.length > 200) return null;
  const row = await db().walletSession.findUnique({
    where: { tokenHash: hashWalletToken(token) },
    select: { id: true, email: true, expiresAt: true },
  });
  if (!row || row.expiresAt <= now) return null;
  if (row.expiresAt.getTime() - now.getTime() < WALLET_SESSION_LIFETIME_MS - SLIDE_AFTER_MS) {
    // Conditional: a session ended meanwhile (sign-out) is not brought back.
    await db().walletSession.updateMany({
      where: { id: row.id, expiresAt: { gt: now } },
      data: { expiresAt: new Date(now.getTime() + WALLET_SESSION_LIFETIME_MS) },
    });
  }
  return { id: row.id, email: row.email };
}

/**
 * The wallet token in a Cookie header, or null. Over https only the `__Host-` cookie counts: a plain-named
 * cookie can be planted by a sibling subdomain (or a plain-http page of the same host), and accepting it
 * would sign a visitor into a session of the planter's choosing. Over plain http only the plain name exists.
 */
export function walletTokenFromCookieHeader(header: string | null | undefined, https: boolean): string | null {
  const name = walletSessionCookieName(https);
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The wallet token of a request's headers (its Cookie, read for the scheme the request came over), or null. */
export function walletTokenFromHeaders(headers: Headers): string | null {
  return walletTokenFromCookieHeader(headers.get("cookie"), requestIsHttps(headers));
}

/** The signed-in recipient of a route handler's request, or null. */
export async function walletSessionFromRequest(request: Request): Promise<WalletSession | null> {
  return walletSessionForToken(walletTokenFromHeaders(request.headers));
}

/**
 * The signed-in recipient, in a server component or server action (next/headers), or null. next/headers
 * is imported when called: this module is also loaded by the plain Node server (previews, background
 * work), where loading Next's request storage at startup fails.
 */
export async function currentWalletSession(): Promise<WalletSession | null> {
  const { headers } = await import("next/headers");
  return walletSessionForToken(walletTokenFromHeaders(await headers()));
}

/** Ends a session at once: its cookie signs nobody in from now on. Ending an ended session does nothing. */
export async function endWalletSession(id: string): Promise<void> {
  await db().walletSession.deleteMany({ where: { id } });
}

/** Deletes sessions that have expired (up to 500 a call; returns how many), for the background cleanup. */
export async function retireExpiredWalletSessions(now = new Date()): Promise<number> {
  const rows = await db().walletSession.findMany({ where: { expiresAt: { lte: now } }, select: { id: true }, take: 500 });
  if (rows.length === 0) return 0;
  await db().walletSession.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  return rows.length;
}

/** The Set-Cookie header value that carries a new session's token. */
export function walletSessionSetCookie(token: string, secure: boolean, maxAgeMs = WALLET_SESSION_LIFETIME_MS): string {
  const attributes = [
    `${walletSessionCookieName(secure)}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  ];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}

/** Set-Cookie header values that remove the wallet cookie (under both names). */
export function walletSessionClearCookies(): string[] {
  return [
    `${walletSessionCookieName(true)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure`,
    `${walletSessionCookieName(false)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
  ];
}
