// Which expiry notices a credential is owed, written as rows in the transaction of the change that
// decides them (issue, edit, revoke, a group's reminder setting), so a notice can be neither lost nor
// sent for a state that was rolled back. Two kinds:
// - `reminder`: the group's "remind N days before expiry", due on the expiry date minus N days;
// - `expired`: due the day after the expiry date, the first day the credential reads as expired.
// A row's id is its kind, credential and due day: writing the same notice twice is one row, and a notice
// that was done is never queued again for that day. The worker (lib/credentials/expiry-notices.ts)
// claims due rows with a lease like the mail outbox and checks them against the credential once more.
import { addPeriod, todayUtc, withinDateRange } from "../core/dates";
import type { SqlClient } from "../db";
import { Prisma } from "../generated/sqlite/client";

export type ExpiryNoticeKind = "reminder" | "expired";

/** What decides a credential's notices. */
export type NoticeSubject = {
  id: string;
  organizationId: string;
  status: string;
  expiryDate: string | null;
  revokedAt: Date | null;
};

export type PlannedNotice = {
  id: string;
  organizationId: string;
  credentialId: string;
  kind: ExpiryNoticeKind;
  dueDate: string;
  expiryDate: string;
};

export const REMINDER_DAYS_MIN = 1;
export const REMINDER_DAYS_MAX = 365;

export function noticeId(kind: ExpiryNoticeKind, credentialId: string, dueDate: string): string {
  return `${kind}:${credentialId}:${dueDate}`;
}

/** The day a reminder `reminderDays` before `expiryDate` is due. */
export function reminderDueDate(expiryDate: string, reminderDays: number): string {
  return addPeriod(expiryDate, -reminderDays, "day");
}

/** The day a credential valid through `expiryDate` starts to read as expired. */
export function expiredDueDate(expiryDate: string): string {
  return addPeriod(expiryDate, 1, "day");
}

function plannedNotice(
  credential: { id: string; organizationId: string },
  kind: ExpiryNoticeKind,
  dueDate: string,
  expiryDate: string,
): PlannedNotice {
  return {
    id: noticeId(kind, credential.id, dueDate),
    organizationId: credential.organizationId,
    credentialId: credential.id,
    kind,
    dueDate,
    expiryDate,
  };
}

/**
 * The notices the credential's current state owes it, whatever their day: none for a draft, a revoked
 * credential or one without an expiry date.
 */
export function owedNotices(credential: NoticeSubject, reminderDays: number | null): PlannedNotice[] {
  const { expiryDate } = credential;
  if (credential.status === "draft" || credential.revokedAt !== null || expiryDate === null) return [];
  const owed: PlannedNotice[] = [];
  const expired = expiredDueDate(expiryDate);
  if (withinDateRange(expired)) owed.push(plannedNotice(credential, "expired", expired, expiryDate));
  if (reminderDays !== null) owed.push(plannedNotice(credential, "reminder", reminderDueDate(expiryDate, reminderDays), expiryDate));
  return owed;
}

/**
 * The owed notices to write now. An `expired` notice is written even when its day has passed (a
 * credential issued already expired is announced at once). A reminder whose day has passed is not:
 * a credential issued, or a setting turned on, with fewer than N days left gets no late reminder.
 */
export function noticesToWrite(owed: readonly PlannedNotice[], today: string): PlannedNotice[] {
  return owed.filter((n) => n.kind === "expired" || n.dueDate >= today);
}

/** Midnight UTC of a day: when its notices become due. */
export function startOfDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/**
 * Inserts the notices, or queues again one that was cancelled (its credential's expiry moved away and
 * back); a notice already done or queued is left as it is.
 */
export async function writeNotices(tx: SqlClient, notices: readonly PlannedNotice[]) {
  if (notices.length === 0) return;
  const now = new Date();
  await tx.$executeRaw`
    INSERT INTO "CredentialExpiryNotice" ("id", "organizationId", "credentialId", "kind", "dueDate", "expiryDate", "status", "attempts",
      "nextAttemptAt", "createdAt", "updatedAt")
    VALUES ${Prisma.join(
      notices.map(
        (n) =>
          Prisma.sql`(${n.id}, ${n.organizationId}, ${n.credentialId}, ${n.kind}, ${n.dueDate}, ${n.expiryDate}, 'queued', 0, ${startOfDay(n.dueDate)}, ${now}, ${now})`,
      ),
    )}
    ON CONFLICT ("id") DO UPDATE SET "status" = 'queued', "attempts" = 0, "nextAttemptAt" = excluded."nextAttemptAt",
      "leaseUntil" = NULL, "leaseOwner" = NULL, "lastError" = NULL, "updatedAt" = excluded."updatedAt"
    WHERE "CredentialExpiryNotice"."status" = 'cancelled'`;
}

/**
 * Brings a credential's notices in line with its state, inside the caller's transaction (which holds
 * the credential's row): queued notices it no longer owes (revoked, expiry moved or removed, reminder
 * setting changed or off) are cancelled, and the ones it owes are written.
 */
export async function rescheduleExpiryNotices(
  tx: SqlClient,
  credential: NoticeSubject,
  reminderDays: number | null,
  today = todayUtc(),
): Promise<void> {
  const owed = owedNotices(credential, reminderDays);
  const keep = owed.map((n) => n.id);
  await tx.$executeRaw`
    UPDATE "CredentialExpiryNotice" SET "status" = 'cancelled', "leaseUntil" = NULL, "leaseOwner" = NULL, "updatedAt" = ${new Date()}
    WHERE "credentialId" = ${credential.id} AND "status" = 'queued'
      ${keep.length > 0 ? Prisma.sql`AND "id" NOT IN (${Prisma.join(keep)})` : Prisma.empty}`;
  await writeNotices(tx, noticesToWrite(owed, today));
}

/** A credential issued just now has no notices yet: only the owed ones to write (none without an expiry date). */
export async function scheduleNewCredentialNotices(
  tx: SqlClient,
  credential: NoticeSubject,
  reminderDays: number | null,
  today = todayUtc(),
): Promise<void> {
  await writeNotices(tx, noticesToWrite(owedNotices(credential, reminderDays), today));
}

/** Cancels every queued notice of a credential (revoked or deleted). */
export async function cancelExpiryNotices(tx: SqlClient, credentialId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "CredentialExpiryNotice" SET "status" = 'cancelled', "leaseUntil" = NULL, "leaseOwner" = NULL, "updatedAt" = ${new Date()}
    WHERE "credentialId" = ${credentialId} AND "status" = 'queued'`;
}

const GROUP_BATCH = 500;

/**
 * A group's reminder setting changed: every queued reminder of its credentials is cancelled and the
 * new setting's reminders are written for those still valid, in batches, inside the caller's
 * transaction (the one that changes the setting).
 */
export async function rescheduleGroupReminders(tx: SqlClient, groupId: string, reminderDays: number | null, today = todayUtc()) {
  await tx.$executeRaw`
    UPDATE "CredentialExpiryNotice" SET "status" = 'cancelled', "leaseUntil" = NULL, "leaseOwner" = NULL, "updatedAt" = ${new Date()}
    WHERE "kind" = 'reminder' AND "status" = 'queued'
      AND "credentialId" IN (SELECT "id" FROM "Credential" WHERE "groupId" = ${groupId})`;
  if (reminderDays === null) return;
  let after = "";
  for (;;) {
    const rows = await tx.$queryRaw<{ id: string; organizationId: string; expiryDate: string }[]>`
      SELECT "id", "organizationId", "expiryDate" FROM "Credential"
      WHERE "groupId" = ${groupId} AND "status" <> 'draft' AND "revokedAt" IS NULL AND "expiryDate" IS NOT NULL
        AND "expiryDate" >= ${today} AND "id" > ${after}
      ORDER BY "id" LIMIT ${GROUP_BATCH}`;
    const reminders = rows
      .map((row) => plannedNotice(row, "reminder", reminderDueDate(row.expiryDate, reminderDays), row.expiryDate))
      .filter((n) => n.dueDate >= today);
    await writeNotices(tx, reminders);
    if (rows.length < GROUP_BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
