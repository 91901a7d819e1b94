// The emailed one-time link into a recipient's wallet. Asking for one looks the same whatever the
// address (the route answers 202 before any of this runs), and an email goes out only when at least
// one issued, expired or revoked credential on this instance is addressed to it. The token is 32
// random bytes; only its SHA-256 is stored. A link works once, within 15 minutes; a newer link does
// not cancel older ones (someone else asking for links must not void the one the recipient opens).
// The email carries the instance's own name and look, not one organization's: the wallet gathers
// credentials from every organization.
import { createTranslator } from "use-intl/core";
import { config } from "../config";
import { ApiError } from "../core/errors";
import { todayUtc } from "../core/dates";
import { db, type Tx } from "../db";
import { newId } from "../db/ids";
import { DEFAULT_LOCALE, isSupportedLocale, textDirection, type Locale } from "../i18n/locales";
import { messagesFor } from "../i18n/messages";
import { localeFromAcceptLanguage } from "../i18n/negotiation";
import { errorSummary, log } from "../log";
import { nudgeMailWorker } from "../mail/nudge";
import { enqueueRenderedEmail, redactEmails } from "../mail/outbox";
import { serviceSender } from "../mail/sender";
import { escapeHtml, type RenderedEmail } from "../mail/template";
import { exactBuckets, rateLimitSubject } from "../rate-limit/shared-rate-limit";
import { normalizeEmail } from "../recipients/service";
import { hashWalletToken, newWalletToken, startWalletSession, type WalletSession } from "./session";

export const WALLET_LINK_LIFETIME_MINUTES = 15;
const REDACTED = "This wallet sign-in link was used or expired, and has been removed.";

/** The page the emailed link opens: it asks before it signs in (mail scanners open links). */
export function walletSignInLinkUrl(token: string): string {
  return `${config().walletUrl}/wallet/sign-in?token=${encodeURIComponent(token)}`;
}

/** Credentials the wallet shows: issued (a scheduled one whose day has come counts), expired or revoked. */
export function shownInWallet(today = todayUtc()) {
  return { OR: [{ status: "issued" }, { status: "scheduled", issueDate: { lte: today } }] };
}

/** The sign-in email in `locale`, branded as this instance. */
export function walletSignInEmail(input: { link: string; email: string; locale: Locale }): RenderedEmail {
  const t = createTranslator({ locale: input.locale, messages: messagesFor(input.locale), namespace: "recipientWallet" });
  const service = serviceSender().name;
  const site = new URL(config().walletUrl).host;
  const values = { service, site, email: input.email, minutes: String(WALLET_LINK_LIFETIME_MINUTES) };
  const text = [
    t("emailHeading", values),
    "",
    t("emailIntro", values),
    "",
    t("emailOpen", values),
    input.link,
    "",
    t("emailIgnore", values),
  ].join("\n");
  const dir = textDirection(input.locale);
  const e = (s: string) => escapeHtml(s);
  const html = `<!doctype html>
<html lang="${input.locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body dir="${dir}" style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;border-top:6px solid #1d4ed8;padding:28px">
<p style="margin:0 0 8px;font-size:14px;color:#6b7280"><bdi>${e(service)}</bdi> · <span dir="ltr">${e(site)}</span></p>
<h1 style="margin:0 0 16px;font-size:20px">${e(t("emailHeading", values))}</h1>
<p style="margin:0 0 16px;line-height:1.5">${e(t("emailIntro", values))}</p>
<p style="margin:0 0 20px"><a href="${e(input.link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${e(t("emailButton"))}</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5">${e(t("emailOpen", values))} <a href="${e(input.link)}" dir="ltr" style="color:#1d4ed8">${e(input.link)}</a></p>
<p style="margin:0;font-size:14px;color:#6b7280">${e(t("emailIgnore", values))}</p>
</div></body></html>`;
  return { subject: t("emailSubject", values), text, html };
}

/** Deletes links and removes them from their emails' bodies. */
async function retireLinks(tx: Tx, where: { expiresAt: { lte: Date } }): Promise<number> {
  const rows = await tx.walletSignInLink.findMany({ where, select: { id: true, outboxId: true }, take: 500 });
  if (rows.length === 0) return 0;
  await tx.walletSignInLink.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  await redactEmails(
    tx,
    rows.flatMap((r) => (r.outboxId ? [r.outboxId] : [])),
    REDACTED,
  );
  return rows.length;
}

/** Retires expired links (up to 500 a call; returns how many): the background cleanup calls it every minute. */
export async function retireExpiredWalletSignInLinks(now = new Date()): Promise<number> {
  return db().$transaction((tx) => retireLinks(tx, { expiresAt: { lte: now } }));
}

/**
 * Emails a sign-in link when a credential the wallet shows is addressed to `email`; does nothing
 * visible otherwise. The language: the one the request's Accept-Language asks for, else the one of
 * the recipient's latest credential's group, else English. Limits are the caller's (the route's).
 * Returns whether an email was queued (for tests and logs; never for the answer).
 */
export async function requestWalletSignInLink(input: { email: string; acceptLanguage: string | null }, now = new Date()): Promise<boolean> {
  const email = normalizeEmail(input.email);
  const latest = await db().credential.findFirst({
    where: { recipient: { emailNormalized: email }, ...shownInWallet(todayUtc(now)) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { group: { select: { language: true } } },
  });
  if (!latest) return false;
  const locale = input.acceptLanguage
    ? localeFromAcceptLanguage(input.acceptLanguage)
    : isSupportedLocale(latest.group.language)
      ? latest.group.language
      : DEFAULT_LOCALE;
  const token = newWalletToken();
  await db().$transaction(async (tx) => {
    const outboxId = await enqueueRenderedEmail(tx, {
      organizationId: null,
      credentialId: null,
      to: email,
      ...walletSignInEmail({ link: walletSignInLinkUrl(token), email, locale }),
    });
    await tx.walletSignInLink.create({
      data: {
        id: newId("wsil"),
        email,
        tokenHash: hashWalletToken(token),
        outboxId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + WALLET_LINK_LIFETIME_MINUTES * 60_000),
      },
    });
  });
  nudgeMailWorker();
  log.info("wallet_sign_in_link_requested", {});
  return true;
}

/**
 * Per email, whoever asks: 5 at once, then one every 3 minutes, so nobody fills someone's inbox with
 * links. It holds for every address alike, so a refusal tells nothing about who has credentials here.
 */
const linksByEmail = () => exactBuckets({ name: "wallet-signin.email", perSecond: 1 / 180, burst: 5 });

/**
 * What `POST /api/wallet/sign-in` does once the email is valid: counts the request against the
 * email's limit (429 `rate_limited` past it) and returns without waiting for the lookup and the
 * email, so the answer takes the same time whether or not the address has credentials here.
 */
export async function askForWalletSignInLink(input: { email: string; acceptLanguage: string | null }): Promise<void> {
  const email = normalizeEmail(input.email);
  const rate = await linksByEmail().take(rateLimitSubject(`wallet-email:${email}`));
  if (!rate.allowed) {
    throw new ApiError("rate_limited", `Too many sign-in links asked for this email; retry in ${rate.retryAfterSeconds} s.`, {
      headers: { "Retry-After": String(rate.retryAfterSeconds) },
    });
  }
  void requestWalletSignInLink({ email, acceptLanguage: input.acceptLanguage }).catch((error: unknown) =>
    log.error("wallet_sign_in_link_failed", errorSummary(error)),
  );
}

/** Whether the link can still sign in (its page asks before showing the button: opening it uses nothing up). */
export async function walletSignInLinkIsValid(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db().walletSignInLink.findUnique({ where: { tokenHash: hashWalletToken(token) }, select: { expiresAt: true } });
  return row !== null && row.expiresAt > now;
}

/**
 * Uses the link up and starts a session for its email, or returns null (unknown, used or expired).
 * Of two uses at once, one deletes the row and the other finds nothing to delete: one session.
 */
export async function signInWithWalletLink(
  token: string,
  now = new Date(),
): Promise<{ session: WalletSession; token: string; expiresAt: Date } | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashWalletToken(token);
  const email = await db().$transaction(async (tx) => {
    const row = await tx.walletSignInLink.findUnique({ where: { tokenHash }, select: { id: true, email: true, outboxId: true } });
    if (!row) return null;
    const used = await tx.walletSignInLink.deleteMany({ where: { id: row.id, expiresAt: { gt: now } } });
    if (used.count !== 1) return null;
    await redactEmails(tx, row.outboxId ? [row.outboxId] : [], REDACTED);
    return row.email;
  });
  if (!email) return null;
  const started = await startWalletSession(email, now);
  log.info("wallet_signed_in", { sessionId: started.session.id });
  return started;
}
