// "Forgot password?": a link by email that sets a new password once. The token is 32 random bytes;
// only its SHA-256 is stored (it is high-entropy, so a fast hash is enough), it expires after an
// hour, and it stops working when used, when a newer link is asked for and when the password is
// changed. Using it ends every dashboard session of the account. Asking answers the same whether or
// not an account has the email, so the form cannot be used to find out who has an account.
import { createHash, randomBytes } from "node:crypto";
import { ApiError } from "../core/errors";
import { addressSubject, exactBuckets, rateLimitSubject } from "../rate-limit/shared-rate-limit";
import { config } from "../config";
import { db, type Tx } from "../db";
import { newId } from "../db/ids";
import { hashPassword } from "../accounts/password";
import { signInThrottle } from "./sign-in-throttle";
import { log } from "../log";
import { nudgeMailWorker } from "../mail/nudge";
import { enqueueRenderedEmail, redactEmails } from "../mail/outbox";
import { escapeHtml, type RenderedEmail } from "../mail/template";
import type { PasswordResetInput } from "../accounts/schema";
import { normalizeAccountEmail } from "../accounts/service";
import { endSessionsOf } from "../accounts/sessions";

export const RESET_LINK_LIFETIME_MINUTES = 60;
/** A request answers no sooner than this either way, so its timing does not tell whether the account exists. */
const MIN_ANSWER_MS = 300;
const REDACTED = "This password reset link was used, replaced or expired, and has been removed.";

export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function resetLink(token: string): string {
  return `${config().publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

// Per email: 3 at once, then one every 5 minutes (nobody fills someone's inbox with links); per client
// address: 10 at once, then one a minute. Kept like the sign-in limits (in the database on PostgreSQL,
// so every process counts the same requests; lib/rate-limit/shared-rate-limit.ts).
function resetLimits() {
  return {
    byEmail: exactBuckets({ name: "reset.email", perSecond: 1 / 300, burst: 3 }),
    byAddress: exactBuckets({ name: "reset.address", perSecond: 1 / 60, burst: 10 }),
  };
}

export function resetEmail(input: { name: string; email: string; link: string }): RenderedEmail {
  const site = new URL(config().publicUrl).host;
  const text = [
    `Hello ${input.name},`,
    "",
    `Someone asked to reset the password of the account ${input.email} on ${site}.`,
    "",
    `To choose a new password, open this link within ${RESET_LINK_LIFETIME_MINUTES} minutes. It works once:`,
    input.link,
    "",
    "If you did not ask for this, ignore this email: your password stays as it is.",
  ].join("\n");
  const e = { name: escapeHtml(input.name), email: escapeHtml(input.email), site: escapeHtml(site), link: escapeHtml(input.link) };
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">Reset your password</h1>
<p style="margin:0 0 16px;line-height:1.5">Hello ${e.name}, someone asked to reset the password of the account ${e.email} on ${e.site}.</p>
<p style="margin:0 0 20px"><a href="${e.link}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">Choose a new password</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5">The link works once, within ${RESET_LINK_LIFETIME_MINUTES} minutes: <a href="${e.link}" style="color:#1d4ed8">${e.link}</a></p>
<p style="margin:0;font-size:14px;color:#6b7280">If you did not ask for this, ignore this email: your password stays as it is.</p>
</div></body></html>`;
  return { subject: "Reset your password", text, html };
}

/** Deletes links and removes them from their emails' bodies. */
async function retireResetLinks(tx: Tx, where: { userId: string } | { expiresAt: { lte: Date } }): Promise<number> {
  const rows = await tx.passwordReset.findMany({ where, select: { id: true, outboxId: true }, take: 500 });
  if (rows.length === 0) return 0;
  await tx.passwordReset.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  await redactEmails(
    tx,
    rows.flatMap((r) => (r.outboxId ? [r.outboxId] : [])),
    REDACTED,
  );
  return rows.length;
}

/**
 * Retires password reset links that have expired (up to 500 a call; returns how many): the background worker
 * calls it every minute, so that a link's row and the copy of it in its email's body do not outlive
 * the link by more than that, whether or not anyone asks for another.
 */
export async function retireExpiredPasswordResets(now = new Date()): Promise<number> {
  return db().$transaction((tx) => retireResetLinks(tx, { expiresAt: { lte: now } }));
}

/** Every unused link of the user stops working (a password change calls this in its transaction). */
export async function retireResetLinksOf(tx: Tx, userId: string): Promise<void> {
  await retireResetLinks(tx, { userId });
}

export const TOO_MANY_RESET_REQUESTS = "Too many password reset requests. Wait a few minutes and try again.";

/**
 * Emails a reset link when an account has this email; does nothing visible otherwise. Throws
 * `rate_limited` past the limits, which apply to every email alike.
 */
export async function requestPasswordReset(input: { email: string; clientAddress: string }, now = new Date()): Promise<void> {
  const started = Date.now();
  const email = normalizeAccountEmail(input.email);
  const limits = resetLimits();
  if (
    !(await limits.byAddress.take(addressSubject(input.clientAddress))).allowed ||
    !(await limits.byEmail.take(rateLimitSubject(`email:${email}`))).allowed
  ) {
    log.warn("password_reset_rate_limited", { address: input.clientAddress });
    throw new ApiError("rate_limited", TOO_MANY_RESET_REQUESTS);
  }
  await db().$transaction((tx) => retireResetLinks(tx, { expiresAt: { lte: now } }));
  const user = await db().user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
  if (user) {
    const token = randomBytes(32).toString("base64url");
    await db().$transaction(async (tx) => {
      await retireResetLinks(tx, { userId: user.id });
      const outboxId = await enqueueRenderedEmail(tx, {
        organizationId: null,
        credentialId: null,
        to: user.email,
        ...resetEmail({ name: user.name, email: user.email, link: resetLink(token) }),
      });
      await tx.passwordReset.create({
        data: {
          id: newId("pwr"),
          userId: user.id,
          tokenHash: hashResetToken(token),
          outboxId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + RESET_LINK_LIFETIME_MINUTES * 60_000),
        },
      });
    });
    nudgeMailWorker();
    log.info("password_reset_requested", { userId: user.id });
  }
  const wait = MIN_ANSWER_MS - (Date.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Whether the link can still set a password (the reset page asks before showing its form). */
export async function resetLinkIsValid(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db().passwordReset.findUnique({ where: { tokenHash: hashResetToken(token) }, select: { expiresAt: true } });
  return row !== null && row.expiresAt > now;
}

export const INVALID_RESET_LINK = "This password reset link has expired or has already been used. Ask for a new one.";

/**
 * Sets the new password and uses the link up; every dashboard session of the account ends, and the
 * sign-in throttling counted for its email is forgotten. A link used twice at once works once.
 */
export async function resetPassword(input: PasswordResetInput, now = new Date()): Promise<void> {
  const tokenHash = hashResetToken(input.token);
  // Checked before hashing the password: a made-up token must not cost a 32 MiB scrypt.
  if (!(await resetLinkIsValid(input.token, now))) throw new ApiError("not_found", INVALID_RESET_LINK);
  const passwordHash = await hashPassword(input.newPassword);
  const { userId, email } = await db().$transaction(async (tx) => {
    const row = await tx.passwordReset.findUnique({ where: { tokenHash }, select: { id: true, userId: true, outboxId: true } });
    // Conditional: of two uses at once, one deletes the row and the other finds nothing to delete.
    const used = row ? await tx.passwordReset.deleteMany({ where: { id: row.id, expiresAt: { gt: now } } }) : { count: 0 };
    if (!row || used.count !== 1) throw new ApiError("not_found", INVALID_RESET_LINK);
    const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { email: true, emailVerifiedAt: true } });
    // The link reached the inbox, so the email is proven.
    await tx.user.update({ where: { id: row.userId }, data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now } });
    await endSessionsOf(tx, row.userId);
    await redactEmails(tx, row.outboxId ? [row.outboxId] : [], REDACTED);
    await retireResetLinks(tx, { userId: row.userId });
    return { userId: row.userId, email: user.email };
  });
  log.info("password_reset", { userId });
  await signInThrottle().forgetEmail(email);
}
