// Processes due expiry notices (rows written by lib/expiry/schedule.ts): a reminder queues the email to
// the recipient and the `credential.expiring` webhook event; an `expired` notice the `credential.expired`
// event. Rows are claimed with a lease (lib/outbox/claim.ts), as mail is, so any number of processes
// share them and a killed one loses nothing: its lease runs out and the row is claimed again. Each row
// is processed in ONE transaction whose conditional update marks it done only while this claim still
// holds it, so of two claimers at most one commits: the email and the event are written at most once
// per notice, and at least once since a failed transaction leaves the row queued for a retry.
import { db, type Tx } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { todayUtc } from "../core/dates";
import { errorSummary, log } from "../log";
import { isSupportedLocale } from "../i18n/locales";
import { exponentialBackoffMs } from "../outbox/backoff";
import { claimLeasedRows, dueAndUnleased } from "../outbox/claim";
import { enqueueEmail } from "../mail/outbox";
import { expiryReminderTemplate, RENEW_URL_ATTRIBUTE } from "../mail/expiry-reminder";
import { nudgeMailWorker } from "../mail/nudge";
import { organizationEmailIdentity } from "../mail/organization-identity";
import { recordWebhookEvents } from "../webhooks/outbox";
import { credentialAttributeValues, walletUrl } from "../attribute-values/credential-values";
import { owedNotices, type ExpiryNoticeKind } from "../expiry/schedule";
import { lockCredentialRow } from "./queries";
import { credentialInclude, readStatus, serializeCredential, type CredentialRow } from "./serialize";

/** A notice's transaction is short (a few rows); a lease of a minute covers it many times over. */
const LEASE_MS = 60_000;
const RETRY_BASE_MS = 30_000;
const RETRY_CAP_MS = 3_600_000;
/** After this many failed attempts a notice stays `failed` (visible, logged) rather than retried forever. */
const MAX_ATTEMPTS = 12;

type ClaimedNotice = {
  id: string;
  organizationId: string;
  credentialId: string;
  kind: string;
  dueDate: string;
  expiryDate: string;
  attempts: number;
  leaseOwner: string | null;
};

/** Leases up to `limit` due notices; returns them with the claim's owner. */
export async function claimDueNotices(now: Date, limit: number): Promise<ClaimedNotice[]> {
  const candidates = Prisma.sql`SELECT "id" FROM "CredentialExpiryNotice" WHERE ${dueAndUnleased(now)} ORDER BY "nextAttemptAt" LIMIT ${limit}`;
  const { owner, claimed } = await claimLeasedRows("CredentialExpiryNotice", candidates, now, LEASE_MS);
  if (claimed === 0) return [];
  return db().credentialExpiryNotice.findMany({
    where: { leaseOwner: owner, status: "queued" },
    orderBy: { nextAttemptAt: "asc" },
    select: {
      id: true,
      organizationId: true,
      credentialId: true,
      kind: true,
      dueDate: true,
      expiryDate: true,
      attempts: true,
      leaseOwner: true,
    },
  });
}

type Handled = "done" | "cancelled" | "lost";

/**
 * Whether the credential, as it is now, still owes this notice: not revoked or deleted, the same expiry
 * date and reminder setting, and for a reminder not expired yet, for `expired` expired indeed.
 */
function stillOwed(
  notice: ClaimedNotice,
  credential: { id: string; organizationId: string; status: string; issueDate: string; expiryDate: string | null; revokedAt: Date | null },
  reminderDays: number | null,
  today: string,
): boolean {
  if (!owedNotices(credential, reminderDays).some((n) => n.id === notice.id)) return false;
  const status = readStatus(credential, today);
  return notice.kind === "expired" ? status === "expired" : status === "issued";
}

/** One notice in one transaction: done (with its email and event) or cancelled, only while our claim holds it. */
export async function handleNotice(notice: ClaimedNotice, now = new Date()): Promise<{ handled: Handled; emailQueued: boolean }> {
  return db().$transaction(async (tx) => {
    // The credential first, as revoke and edit lock it first: they take turns with this notice.
    const exists = await lockCredentialRow(tx, notice.organizationId, notice.credentialId);
    const credential = exists
      ? await tx.credential.findUnique({ where: { id: notice.credentialId }, include: { ...credentialInclude, group: true } })
      : null;
    const owed = credential !== null && stillOwed(notice, credential, credential.group.expiryReminderDays, todayUtc(now));
    const status = owed ? "done" : "cancelled";
    const taken = await tx.credentialExpiryNotice.updateMany({
      where: { id: notice.id, status: "queued", leaseOwner: notice.leaseOwner },
      data: { status, doneAt: owed ? now : null, leaseUntil: null, leaseOwner: null, lastError: null },
    });
    // Cancelled meanwhile, or our lease ran out and another claim has it: not ours to act on.
    if (taken.count !== 1) return { handled: "lost", emailQueued: false };
    if (!owed || !credential) return { handled: "cancelled", emailQueued: false };
    const kind = notice.kind as ExpiryNoticeKind;
    let emailQueued = false;
    if (kind === "reminder" && credential.recipient) {
      await queueReminderEmail(tx, credential);
      emailQueued = true;
    }
    await recordWebhookEvents(tx, notice.organizationId, [
      { type: kind === "reminder" ? "credential.expiring" : "credential.expired", data: () => serializeCredential(credential) },
    ]);
    return { handled: "done", emailQueued };
  });
}

type CredentialWithGroup = CredentialRow & {
  organizationId: string;
  group: { name: string; learningEventUrl: string | null; language: string | null };
};

async function queueReminderEmail(tx: Tx, credential: CredentialWithGroup): Promise<void> {
  const organization = await tx.organization.findUniqueOrThrow({ where: { id: credential.organizationId }, select: { name: true } });
  const { group } = credential;
  const identity = await organizationEmailIdentity(tx, credential.organizationId);
  const language = isSupportedLocale(group.language) ? group.language : null;
  const values = {
    ...credentialAttributeValues({ credential, group, organization }),
    "credential.url": walletUrl(credential.publicId, { recipient: true }),
    ...(group.learningEventUrl ? { [RENEW_URL_ATTRIBUTE]: group.learningEventUrl } : {}),
  };
  await enqueueEmail(tx, {
    organizationId: credential.organizationId,
    credentialId: credential.id,
    to: credential.recipient!.email,
    template: expiryReminderTemplate(identity.branding, language, { renew: group.learningEventUrl !== null }),
    values,
    sender: identity.sender,
    branding: identity.branding,
    certificate: null,
    language,
    kind: "expiry_reminder",
  });
}

/** A failed attempt: back to the queue with a growing wait, or `failed` after MAX_ATTEMPTS. */
async function recordFailure(notice: ClaimedNotice, error: unknown, now: Date): Promise<void> {
  const givesUp = notice.attempts >= MAX_ATTEMPTS;
  const summary = errorSummary(error);
  log.error(givesUp ? "expiry_notice_failed" : "expiry_notice_retry", { noticeId: notice.id, attempt: notice.attempts, ...summary });
  await db().credentialExpiryNotice.updateMany({
    where: { id: notice.id, status: "queued", leaseOwner: notice.leaseOwner },
    data: {
      status: givesUp ? "failed" : "queued",
      leaseUntil: null,
      leaseOwner: null,
      // The error's kind and code only: a message could carry SQL or an address.
      lastError: [summary.errorType, summary.errorCode].filter(Boolean).join(" "),
      nextAttemptAt: new Date(now.getTime() + exponentialBackoffMs(notice.attempts, RETRY_BASE_MS, RETRY_CAP_MS)),
    },
  });
}

/** One round: claims due notices and handles each. Returns how many were claimed. */
export async function processDueExpiryNotices(now = new Date(), limit = 100): Promise<number> {
  const notices = await claimDueNotices(now, limit);
  let emails = false;
  for (const notice of notices) {
    try {
      const { emailQueued } = await handleNotice(notice, now);
      emails ||= emailQueued;
    } catch (error) {
      await recordFailure(notice, error, now).catch((e) => log.error("expiry_notice_record_failed", errorSummary(e)));
    }
  }
  if (emails) nudgeMailWorker();
  return notices.length;
}
