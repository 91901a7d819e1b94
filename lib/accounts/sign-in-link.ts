// The emailed one-time sign-in link: the way in for the owner of an account that is guarded (so many
// wrong passwords were tried for it that a password is checked only in a browser that signed in to it
// before; lib/auth/sign-in-throttle.ts). A refused password attempt for a guarded account asks for one.
// The token is 32 random bytes; only its SHA-256 is stored (it is high-entropy, so a fast hash is
// enough). A link works once, within 15 minutes. A newer link does not cancel older ones: whoever is
// guessing can also ask for links, and must not be able to void the one the owner is opening. Asking
// looks the same whether or not an account has the email.
import { createHash, randomBytes } from "node:crypto";
import { exactBuckets, rateLimitSubject } from "../rate-limit/shared-rate-limit";
import { config } from "../config";
import { db, type Tx } from "../db";
import { newId } from "../db/ids";
import { log } from "../log";
import { nudgeMailWorker } from "../mail/nudge";
import { enqueueRenderedEmail, redactEmails } from "../mail/outbox";
import { escapeHtml, type RenderedEmail } from "../mail/template";
import { normalizeAccountEmail } from "./service";

export const SIGN_IN_LINK_LIFETIME_MINUTES = 15;
const REDACTED = "This sign-in link was used or expired, and has been removed.";

export const INVALID_SIGN_IN_LINK = "This sign-in link has expired or has already been used. Sign in again to get a new one.";

export type LinkUser = { id: string; name: string; email: string; sessionVersion: number };

function hashSignInToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function signInLinkUrl(token: string): string {
  return `${config().publicUrl}/signin/link?token=${encodeURIComponent(token)}`;
}

// Per email: 3 at once, then one every 5 minutes, for any email alike (every refused attempt for a
// guarded account asks, and nobody fills someone's inbox with links). Kept like the sign-in limits.
const linksByEmail = () => exactBuckets({ name: "signin-link.email", perSecond: 1 / 300, burst: 3 });

export function signInLinkEmail(input: { name: string; email: string; link: string }): RenderedEmail {
  const site = new URL(config().publicUrl).host;
  const text = [
    `Hello ${input.name},`,
    "",
    `Many wrong passwords were tried for the account ${input.email} on ${site}, so for now it accepts a password only in a browser that has signed in to it before.`,
    "",
    `To sign in, open this link within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes. It works once:`,
    input.link,
    "",
    "If you did not try to sign in, someone else may be guessing your password: ignore this email, and consider choosing a longer password.",
  ].join("\n");
  const e = { name: escapeHtml(input.name), email: escapeHtml(input.email), site: escapeHtml(site), link: escapeHtml(input.link) };
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">Your sign-in link</h1>
<p style="margin:0 0 16px;line-height:1.5">Hello ${e.name}, many wrong passwords were tried for the account ${e.email} on ${e.site}, so for now it accepts a password only in a browser that has signed in to it before.</p>
<p style="margin:0 0 20px"><a href="${e.link}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">Sign in</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5">The link works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes: <a href="${e.link}" style="color:#1d4ed8">${e.link}</a></p>
<p style="margin:0;font-size:14px;color:#6b7280">If you did not try to sign in, someone else may be guessing your password: ignore this email, and consider choosing a longer password.</p>
</div></body></html>`;
  return { subject: "Your sign-in link", text, html };
}

/** Deletes links and removes them from their emails' bodies. */
async function retireSignInLinks(tx: Tx, where: { expiresAt: { lte: Date } }): Promise<number> {
  const rows = await tx.signInLink.findMany({ where, select: { id: true, outboxId: true }, take: 500 });
  if (rows.length === 0) return 0;
  await tx.signInLink.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  await redactEmails(
    tx,
    rows.flatMap((r) => (r.outboxId ? [r.outboxId] : [])),
    REDACTED,
  );
  return rows.length;
}

/**
 * Retires sign-in links that have expired (up to 500 a call; returns how many): the background worker
 * calls it every minute, so that a link's row and the copy of it in its email's body do not outlive
 * the link by more than that, whether or not anyone asks for another.
 */
export async function retireExpiredSignInLinks(now = new Date()): Promise<number> {
  return db().$transaction((tx) => retireSignInLinks(tx, { expiresAt: { lte: now } }));
}

/**
 * Emails a sign-in link when an account has this email and the email's limit allows; does nothing
 * visible otherwise. Never throws for a limit. The sign-in that asks does not wait for it, so the
 * time a refusal takes does not tell whether an email went out.
 */
export async function requestSignInLink(input: { email: string }, now = new Date()): Promise<void> {
  const email = normalizeAccountEmail(input.email);
  if (!(await linksByEmail().take(rateLimitSubject(`email:${email}`))).allowed) return;
  await db().$transaction((tx) => retireSignInLinks(tx, { expiresAt: { lte: now } }));
  const user = await db().user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
  if (user) {
    const token = randomBytes(32).toString("base64url");
    await db().$transaction(async (tx) => {
      const outboxId = await enqueueRenderedEmail(tx, {
        organizationId: null,
        credentialId: null,
        to: user.email,
        ...signInLinkEmail({ name: user.name, email: user.email, link: signInLinkUrl(token) }),
      });
      await tx.signInLink.create({
        data: {
          id: newId("sil"),
          userId: user.id,
          tokenHash: hashSignInToken(token),
          outboxId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MINUTES * 60_000),
        },
      });
    });
    nudgeMailWorker();
    log.info("sign_in_link_requested", { userId: user.id });
  }
}

/** Whether the link can still sign in (its page asks before showing the button: opening it uses nothing up). */
export async function signInLinkIsValid(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db().signInLink.findUnique({ where: { tokenHash: hashSignInToken(token) }, select: { expiresAt: true } });
  return row !== null && row.expiresAt > now;
}

/** Uses the link up and returns the account it signs in to, or null. A link used twice at once works once. */
export async function redeemSignInLink(token: string, now = new Date()): Promise<LinkUser | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashSignInToken(token);
  const user = await db().$transaction(async (tx) => {
    const row = await tx.signInLink.findUnique({ where: { tokenHash }, select: { id: true, userId: true, outboxId: true } });
    if (!row) return null;
    // Conditional: of two uses at once, one deletes the row and the other finds nothing to delete.
    const used = await tx.signInLink.deleteMany({ where: { id: row.id, expiresAt: { gt: now } } });
    if (used.count !== 1) return null;
    await redactEmails(tx, row.outboxId ? [row.outboxId] : [], REDACTED);
    const found = await tx.user.findUniqueOrThrow({
      where: { id: row.userId },
      select: { id: true, name: true, email: true, sessionVersion: true, emailVerifiedAt: true },
    });
    // The link reached the inbox, so the email is proven.
    if (!found.emailVerifiedAt) await tx.user.update({ where: { id: found.id }, data: { emailVerifiedAt: now } });
    return { id: found.id, name: found.name, email: found.email, sessionVersion: found.sessionVersion };
  });
  if (user) log.info("signed_in_with_link", { userId: user.id });
  return user;
}
