// Credentials: draft → issue (or scheduled) → send, and the all-in-one create-issue-send. State changes
// are transactions with conditional updates, so two concurrent issues of one draft cannot both win and
// concurrent issuing cannot pass a free plan's quota; email is queued in the same transaction.
import { recordAttributeUse } from "../attributes/service";
import { isForeignKeyViolation } from "../db/constraint-errors";
import { randomUUID } from "node:crypto";
import { ApiError, invalidField, notFound } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { config } from "../config";
import { errorSummary, log } from "../log";
import { db, type SqlClient, type Tx } from "../db";
import { directTransaction } from "../db/direct-transaction";
import { newId } from "../db/ids";
import { cancelQueuedEmails, enqueueEmail } from "../mail/outbox";
import { cancelExpiryNotices, rescheduleExpiryNotices, scheduleNewCredentialNotices } from "../expiry/schedule";
import { isSupportedLocale } from "../i18n/locales";
import { recordWebhookEvents, type PendingWebhookEvent } from "../webhooks/outbox";
import { nudgeMailWorker } from "../mail/nudge";
import { nudgeWebhookWorker } from "../webhooks/nudge";
import { organizationEmailIdentity } from "../mail/organization-identity";
import { emailCertificatePreview } from "../previews/credential-designs";
import type { Caller } from "../organizations/service";
import { forgetPreviewDigests } from "../previews/versions";
import { previewKeys } from "../previews/service";
import { previewStore } from "../storage";
import { findOrCreateRecipient, normalizeEmail, normalizeName } from "../recipients/service";
import { credentialAttributeValues, walletUrl } from "../attribute-values/credential-values";
import {
  countIssueWithinQuota,
  groupSelect,
  insertCredentialRow,
  lockCredentialRow,
  selectCredentialForRead,
  selectGroupForCredential,
  type GroupForCredential,
} from "./queries";
import { addPeriod, LAST_DATE, monthOf, todayUtc, withinDateRange, type PeriodUnit } from "../core/dates";
import type { CreateCredentialInput, RevokeCredentialInput, UpdateCredentialInput } from "./schema";
import { credentialInclude, readStatus, serializeCredential, type ApiCredential, type CredentialRow } from "./serialize";

type Organization = Caller["organization"];

async function groupForCredential(organizationId: string, groupId: string): Promise<GroupForCredential> {
  const group = await selectGroupForCredential(organizationId, groupId);
  if (!group) throw invalidField("groupId", "no group with this id in your organization");
  return group;
}

/**
 * The expiry the group's period gives, or null. `path` names the field the caller sent that made the
 * service apply the period (a period of 1,000 years can pass 9999-12-31, the last date we store).
 */
export function groupDefaultExpiry(group: GroupForCredential, issueDate: string, path: string): string | null {
  if (group.expiryAmount === null || group.expiryUnit === null) return null;
  const expiry = addPeriod(issueDate, group.expiryAmount, group.expiryUnit as PeriodUnit);
  if (!withinDateRange(expiry)) {
    const period = `${group.expiryAmount} ${group.expiryUnit}${group.expiryAmount === 1 ? "" : "s"}`;
    throw invalidField(
      path,
      `the group's expiry period (${period} after ${issueDate}) ends after ${LAST_DATE}; send an expiryDate, or shorten the group's expiryPeriod`,
    );
  }
  return expiry;
}

/** The one rule about a credential's two dates; also used by the CSV import to report a bad row before anything is written. */
export function checkDateOrder(issueDate: string, expiryDate: string | null) {
  if (expiryDate !== null && expiryDate < issueDate) {
    throw invalidField("expiryDate", `must not be before the issue date (${issueDate})`);
  }
}

async function findCredential(
  client: Tx | ReturnType<typeof db>,
  organizationId: string,
  id: string,
): Promise<CredentialRow & { recipientId: string | null; expiryDateExplicit: boolean; sendPending: boolean }> {
  const row = await client.credential.findFirst({ where: { id, organizationId }, include: credentialInclude });
  if (!row) throw notFound("Credential");
  return row;
}

async function lockCredential(tx: Tx, organizationId: string, id: string): Promise<void> {
  if (!(await lockCredentialRow(tx, organizationId, id))) throw notFound("Credential");
}

function conflict(message: string): ApiError {
  return new ApiError("conflict", message);
}

/** Counts one issue against a free organization's monthly quota, or refuses with 402. */
export async function consumeIssueQuota(tx: SqlClient, organization: Organization, now: Date) {
  if (organization.plan !== "free") return;
  const quota = organization.monthlyIssueQuota ?? config().freePlanMonthlyIssues;
  const month = monthOf(now);
  if (!(await countIssueWithinQuota(tx, organization.id, month, quota))) {
    throw new ApiError(
      "payment_required",
      `The free plan issues up to ${quota} credentials per calendar month and this month's are used up; upgrade to premium to issue more.`,
    );
  }
}

/** Revocation is final: a revoked credential is not sent, changed or revoked again. */
function refuseIfRevoked(credential: { revokedAt: Date | null }, action: "sent" | "changed" | "revoked again") {
  if (credential.revokedAt !== null) {
    throw conflict(`This credential was revoked on ${credential.revokedAt.toISOString()} and cannot be ${action}; revocation is final.`);
  }
}

/** A webhook event about a credential, its data the credential as the API returns it. */
function credentialEvent(type: PendingWebhookEvent["type"], row: CredentialRow): PendingWebhookEvent {
  return { type, data: () => serializeCredential(row) };
}

/**
 * Writes or moves the credential's expiry notices (reminder, expired) to match its state now, in the
 * transaction of the change: lib/expiry/schedule.ts.
 */
async function scheduleExpiryNotices(
  tx: SqlClient,
  organizationId: string,
  credential: { id: string; status: string; expiryDate: string | null; revokedAt: Date | null },
  reminderDays: number | null,
): Promise<void> {
  await rescheduleExpiryNotices(tx, { ...credential, organizationId }, reminderDays);
}

async function groupReminderDays(tx: Tx, groupId: string): Promise<number | null> {
  return (await tx.group.findUniqueOrThrow({ where: { id: groupId }, select: { expiryReminderDays: true } })).expiryReminderDays;
}

function issuedStatusFor(issueDate: string, now: Date): "issued" | "scheduled" {
  return issueDate > todayUtc(now) ? "scheduled" : "issued";
}

async function queueCredentialEmail(
  tx: SqlClient,
  organization: { id: string; name: string },
  credential: CredentialRow,
  group: GroupForCredential,
  options: { coalesceRepeats?: boolean } = {},
): Promise<void> {
  if (!credential.recipient) return;
  const values = credentialAttributeValues({ credential, group, organization });
  values["credential.url"] = walletUrl(credential.publicId, { recipient: true });
  const identity = await organizationEmailIdentity(tx, organization.id);
  // The built-in body shows the certificate; a group's own HTML does not ask for it.
  const certificate = group.emailHtml === null ? await emailCertificatePreview(tx, organization, credential, group) : null;
  // Rows only: what the email needs goes on the outbox row, and the mail worker writes it when it sends.
  await enqueueEmail(
    tx,
    {
      organizationId: organization.id,
      credentialId: credential.id,
      to: credential.recipient.email,
      template: { subject: group.emailSubject, html: group.emailHtml, text: group.emailText },
      values,
      sender: identity.sender,
      branding: {
        ...identity.branding,
        certificateImage: certificate && { url: certificate.url, width: certificate.width, height: certificate.height },
      },
      certificate: certificate && { digest: certificate.digest, revisionId: certificate.revisionId },
      language: isSupportedLocale(group.language) ? group.language : null,
    },
    options,
  );
}

async function insertCredential(
  tx: SqlClient,
  organizationId: string,
  group: GroupForCredential,
  input: CreateCredentialInput,
  state: { status: "draft" | "issued" | "scheduled"; issuedAt: Date | null; sendPending: boolean },
): Promise<CredentialRow> {
  const issueDate = input.issueDate ?? todayUtc();
  const expiryDate = input.expiryDate ?? groupDefaultExpiry(group, issueDate, input.issueDate === undefined ? "groupId" : "issueDate");
  checkDateOrder(issueDate, expiryDate);
  const recipient = input.recipient.email
    ? await findOrCreateRecipient(tx, organizationId, { name: input.recipient.name, email: input.recipient.email })
    : null;
  const customAttributes = Object.fromEntries(Object.entries(input.customAttributes ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  const now = new Date();
  const row = {
    id: newId("cred"),
    publicId: randomUUID(),
    organizationId,
    groupId: group.id,
    recipientId: recipient?.id ?? null,
    recipientName: input.recipient.name,
    status: state.status,
    issueDate,
    expiryDate,
    expiryDateExplicit: input.expiryDate !== undefined,
    customAttributes: JSON.stringify(customAttributes),
    issuedAt: state.issuedAt,
    sendPending: state.sendPending,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await insertCredentialRow(tx, row);
  } catch (error) {
    // The group was deleted after it was read (DELETE /v1/groups/{id}); its foreign key refused the row.
    if (isForeignKeyViolation(error)) throw invalidField("groupId", "no group with this id in your organization");
    throw error;
  }
  await recordAttributeUse(tx, organizationId, Object.keys(customAttributes));
  return { ...row, revokedAt: null, revocationReason: null, recipient };
}

export async function createCredential(organization: Organization, input: CreateCredentialInput): Promise<ApiCredential> {
  const group = await groupForCredential(organization.id, input.groupId);
  const row = await directTransaction(async (tx) => {
    const created = await insertCredential(tx, organization.id, group, input, { status: "draft", issuedAt: null, sendPending: false });
    await recordWebhookEvents(tx, organization.id, [credentialEvent("credential.created", created)]);
    return created;
  });
  return serializeCredential(row);
}

/**
 * Work that must commit or roll back together with a new credential: the CSV import records its row's
 * outcome here, so that a credential exists if and only if its row says so (a throw rolls back both).
 */
/** Statements written in the credential's own transaction (plain SQL: it runs past the Prisma client). */
export type AlongsideCredential = (tx: SqlClient, credential: { id: string }) => Promise<void>;

type CreateIssueOptions = { alongside?: AlongsideCredential };

/** Creates, issues and queues the email in one transaction: all of it happens, or none. */
export async function createIssueSendCredential(
  organization: Organization,
  input: CreateCredentialInput,
  options: CreateIssueOptions = {},
): Promise<ApiCredential> {
  return createAndIssueCredential(organization, input, { ...options, send: true });
}

/**
 * create-issue-send without the email, in one transaction: what a CSV import does when asked not to
 * send. (Create, then issue, would be two transactions: a quota refusal in between leaves a draft.)
 */
export async function createIssueCredential(
  organization: Organization,
  input: CreateCredentialInput,
  options: CreateIssueOptions = {},
): Promise<ApiCredential> {
  return createAndIssueCredential(organization, input, { ...options, send: false });
}

async function createAndIssueCredential(
  organization: Organization,
  input: CreateCredentialInput,
  options: CreateIssueOptions & { send: boolean },
): Promise<ApiCredential> {
  const group = await groupForCredential(organization.id, input.groupId);
  const now = new Date();
  const { alongside } = options;
  // Past the Prisma client: issuing's hot path (bench:issue), and an import's rows with what they record.
  const created = await directTransaction(async (tx) => {
    const credential = await createAndIssueWithin(tx, organization, group, input, options.send, now);
    await alongside?.(tx, credential.row);
    return credential;
  });
  if (created.emailQueued) nudgeMailWorker();
  // Delivered at once rather than at the worker's next poll (it claims at most every so often anyway).
  if (created.webhooksQueued) nudgeWebhookWorker();
  return serializeCredential(created.row);
}

/** The steps of create-issue(-send), inside the caller's transaction. */
async function createAndIssueWithin(
  tx: SqlClient,
  organization: Organization,
  group: GroupForCredential,
  input: CreateCredentialInput,
  send: boolean,
  now: Date,
): Promise<{ row: CredentialRow; emailQueued: boolean; webhooksQueued: boolean }> {
  const status = issuedStatusFor(input.issueDate ?? todayUtc(now), now);
  const withEmail = send && Boolean(input.recipient.email);
  const row = await insertCredential(tx, organization.id, group, input, {
    status,
    issuedAt: now,
    // A scheduled credential's email goes out when it is issued (see promoteDueScheduledCredentials).
    sendPending: status === "scheduled" && withEmail,
  });
  await consumeIssueQuota(tx, organization, now);
  // A new row has no notices to move: only writes, and none at all without an expiry date (the hot path).
  await scheduleNewCredentialNotices(tx, { ...row, organizationId: organization.id }, group.expiryReminderDays);
  const emailQueued = status === "issued" && withEmail && row.recipient !== null;
  if (emailQueued) await queueCredentialEmail(tx, organization, row, group);
  const deliveries = await recordWebhookEvents(tx, organization.id, [
    credentialEvent("credential.created", row),
    ...(status === "issued" ? [credentialEvent("credential.issued", row)] : []),
    ...(emailQueued ? [credentialEvent("credential.sent", row)] : []),
  ]);
  return { row, emailQueued, webhooksQueued: deliveries > 0 };
}

/**
 * create-issue(-send) for several requests in ONE transaction, each exactly as createIssueSendCredential
 * (or createIssueCredential, without `send`) would do it: a CSV import's batch, which saves a transaction
 * per row. All or nothing: if any is refused (its ApiError is thrown), none is written, and the caller
 * can go through them one by one to learn which. `alongside` gets the credentials in input order.
 */
export async function createIssueCredentialsTogether(
  organization: Organization,
  inputs: readonly CreateCredentialInput[],
  options: { send: boolean; alongside?: (tx: SqlClient, credentials: { id: string }[]) => Promise<void> },
): Promise<ApiCredential[]> {
  const groups = new Map<string, GroupForCredential>();
  for (const input of inputs)
    if (!groups.has(input.groupId)) groups.set(input.groupId, await groupForCredential(organization.id, input.groupId));
  const now = new Date();
  // Past the Prisma client, as for one credential: a batch is a few hundred statements, and through the
  // client each would be compiled and (on SQLite) prepared anew (bench:import's profile: most of its CPU).
  const created = await directTransaction(async (tx) => {
    const credentials: Awaited<ReturnType<typeof createAndIssueWithin>>[] = [];
    for (const input of inputs)
      credentials.push(await createAndIssueWithin(tx, organization, groups.get(input.groupId)!, input, options.send, now));
    await options.alongside?.(
      tx,
      credentials.map((c) => c.row),
    );
    return credentials;
  });
  if (created.some((c) => c.emailQueued)) nudgeMailWorker();
  if (created.some((c) => c.webhooksQueued)) nudgeWebhookWorker();
  return created.map((c) => serializeCredential(c.row));
}

export async function getCredential(organization: Organization, id: string): Promise<ApiCredential> {
  const row = await selectCredentialForRead(organization.id, id);
  if (!row) throw notFound("Credential");
  return serializeCredential(row);
}

export async function listCredentials(
  organization: Organization,
  options: { cursor?: string; limit: number },
): Promise<Page<ApiCredential>> {
  const today = todayUtc();
  return newestFirstPage({
    scope: "credentials",
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) =>
      db().credential.findMany({ where: { organizationId: organization.id, ...where }, orderBy, take, include: credentialInclude }),
    serialize: (row) => serializeCredential(row, today),
  });
}

export async function issueCredential(organization: Organization, id: string): Promise<ApiCredential> {
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    const credential = await findCredential(tx, organization.id, id);
    if (credential.status !== "draft") {
      throw conflict(`Only draft credentials can be issued; this one is ${readStatus(credential)}.`);
    }
    // The conditional update comes first: it takes the row, so of concurrent issues exactly one goes on.
    const { count } = await tx.credential.updateMany({
      where: { id, status: "draft" },
      data: { status: issuedStatusFor(credential.issueDate, now), issuedAt: now },
    });
    if (count !== 1) throw conflict("Only draft credentials can be issued; this one was issued by another request.");
    await consumeIssueQuota(tx, organization, now);
    const issued = await findCredential(tx, organization.id, id);
    await scheduleExpiryNotices(tx, organization.id, issued, await groupReminderDays(tx, issued.groupId));
    // A future issue date makes it scheduled: it is issued (and announced as such) when the date comes.
    await recordWebhookEvents(tx, organization.id, [
      credentialEvent(issued.status === "issued" ? "credential.issued" : "credential.updated", issued),
    ]);
    return issued;
  });
  return serializeCredential(row);
}

export async function sendCredential(organization: Organization, id: string): Promise<ApiCredential> {
  const { credential } = await sendWithin(organization, id, () => true);
  // No nudge: the email waits REPEAT_WINDOW_MS for repeats to coalesce with it; the worker's next poll takes it.
  return serializeCredential(credential);
}

/** The credential's newest own email (not a reminder), or null: what "already emailed" is decided by. */
export type LatestOwnEmail = { id: string; status: string; sentAt: Date | null; createdAt: Date } | null;

/**
 * The send of a credential, its row locked first: concurrent sends of one credential take turns, so a
 * repeat finds the email the first one queued (and is coalesced with it, or turned away by `proceed`,
 * which sees the newest email as it is under the lock). Refusals are the API's (revoked, not issued,
 * no email address).
 */
async function sendWithin(
  organization: Organization,
  id: string,
  proceed: (latest: LatestOwnEmail) => boolean,
): Promise<{ credential: CredentialRow; queued: boolean; latest: LatestOwnEmail }> {
  return db().$transaction(async (tx) => {
    await lockCredential(tx, organization.id, id);
    const credential = await findCredential(tx, organization.id, id);
    refuseIfRevoked(credential, "sent");
    const status = readStatus(credential);
    if (status !== "issued") throw conflict(`Only issued credentials can be sent; this one is ${status}.`);
    if (!credential.recipient) throw conflict("This credential has no recipient email address to send it to.");
    const latest = await tx.emailOutbox.findFirst({
      where: { credentialId: id, kind: "credential" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, status: true, sentAt: true, createdAt: true },
    });
    if (!proceed(latest)) return { credential, queued: false, latest };
    const group = await tx.group.findUniqueOrThrow({ where: { id: credential.groupId }, select: groupSelect });
    await queueCredentialEmail(tx, organization, credential, group, { coalesceRepeats: true });
    await recordWebhookEvents(tx, organization.id, [credentialEvent("credential.sent", credential)]);
    return { credential, queued: true, latest };
  });
}

/** Whether an email counts as the credential having been emailed: sent, or queued to go. */
export function emailedAlready(latest: LatestOwnEmail): boolean {
  return latest !== null && (latest.status === "sent" || latest.status === "queued");
}

export type SendOnceOutcome =
  | { queued: true }
  /** Not queued: `latest` is the email that made it unnecessary. */
  | { queued: false; latest: NonNullable<LatestOwnEmail>; reason: "emailed" | "waiting" | "changed" };

/**
 * A send that never surprises (the dashboard's bulk send): a credential already emailed (its own email
 * sent or queued) is left alone unless `again`; even with `again`, an email still waiting to go out is
 * not doubled. `seenEmailId` is the newest email the person's confirmation was based on (null: none):
 * when another request (a double click, a second tab) emailed it since, this one changes nothing. The
 * decision is taken under the credential's row lock, so two concurrent submits send one email.
 */
export async function sendCredentialOnce(
  organization: Organization,
  id: string,
  options: { again: boolean; seenEmailId?: string | null },
): Promise<SendOnceOutcome> {
  let reason: "emailed" | "waiting" | "changed" = "emailed";
  const { queued, latest } = await sendWithin(organization, id, (latest) => {
    if (options.seenEmailId !== undefined && (latest?.id ?? null) !== options.seenEmailId && emailedAlready(latest)) {
      reason = "changed";
      return false;
    }
    if (latest?.status === "queued") {
      reason = "waiting";
      return false;
    }
    return options.again || !emailedAlready(latest);
  });
  return queued || latest === null ? { queued: true } : { queued: false, latest, reason };
}

export async function updateCredential(organization: Organization, id: string, input: UpdateCredentialInput): Promise<ApiCredential> {
  const { row, emailQueued } = await db().$transaction((tx) => updateCredentialWithin(tx, organization, id, input));
  if (emailQueued) nudgeMailWorker();
  return serializeCredential(row);
}

/**
 * The edit PATCH /v1/credentials/{id} makes, inside the caller's transaction: an approved name
 * correction applies its name through this very function, so the two cannot drift apart. The caller
 * nudges the mail worker when `emailQueued`.
 */
export async function updateCredentialWithin(
  tx: Tx,
  organization: Organization,
  id: string,
  input: UpdateCredentialInput,
): Promise<{ row: CredentialRow; emailQueued: boolean }> {
  await lockCredential(tx, organization.id, id);
  const credential = await findCredential(tx, organization.id, id);
  refuseIfRevoked(credential, "changed");
  if (input.recipient) {
    if (credential.recipientId === null || input.recipient.id !== credential.recipientId) {
      throw invalidField("recipient.id", "is not this credential's recipient");
    }
    const email = input.recipient.email?.trim();
    if (email !== undefined) {
      const other = await tx.recipient.findFirst({
        where: { organizationId: organization.id, emailNormalized: normalizeEmail(email), NOT: { id: credential.recipientId } },
        select: { id: true },
      });
      if (other) throw invalidField("recipient.email", "another recipient of your organization has this email address");
    }
    await tx.recipient.update({
      where: { id: credential.recipientId },
      data: {
        name: input.recipient.name,
        nameNormalized: normalizeName(input.recipient.name),
        ...(email !== undefined ? { email, emailNormalized: normalizeEmail(email) } : {}),
      },
    });
  }

  const issueDate = input.issueDate ?? credential.issueDate;
  let expiryDate = credential.expiryDate;
  let expiryDateExplicit = credential.expiryDateExplicit;
  if (input.expiryDate !== undefined || (input.issueDate !== undefined && !credential.expiryDateExplicit)) {
    // null re-applies the group's setting; a derived expiry follows a changed issue date.
    if (input.expiryDate === null || input.expiryDate === undefined) {
      const group = await tx.group.findUniqueOrThrow({ where: { id: credential.groupId }, select: groupSelect });
      expiryDate = groupDefaultExpiry(group, issueDate, input.expiryDate === null ? "expiryDate" : "issueDate");
      expiryDateExplicit = false;
    } else {
      expiryDate = input.expiryDate;
      expiryDateExplicit = true;
    }
  }
  checkDateOrder(issueDate, expiryDate);

  const customAttributes = {
    ...(JSON.parse(credential.customAttributes) as Record<string, string | null>),
    ...(input.customAttributes ?? {}),
  };
  const sorted = Object.fromEntries(Object.entries(customAttributes).sort(([a], [b]) => a.localeCompare(b)));
  if (input.customAttributes) await recordAttributeUse(tx, organization.id, Object.keys(input.customAttributes));
  const updated = await tx.credential.update({
    where: { id },
    data: {
      recipientName: input.recipient?.name ?? credential.recipientName,
      issueDate,
      expiryDate,
      expiryDateExplicit,
      customAttributes: JSON.stringify(sorted),
    },
    include: credentialInclude,
  });
  // The expiry date may have moved: pending notices move with it.
  await scheduleExpiryNotices(tx, organization.id, updated, await groupReminderDays(tx, updated.groupId));
  // A scheduled credential whose issue date is moved to today or earlier is issued now, with its
  // email, rather than at the scheduler's next round: reads already show it as issued.
  if (credential.status !== "scheduled" || issueDate > todayUtc()) {
    await recordWebhookEvents(tx, organization.id, [credentialEvent("credential.updated", updated)]);
    return { row: updated, emailQueued: false };
  }
  const { emailQueued } = await promoteScheduledWithin(tx, organization.id, id);
  const promoted = await tx.credential.findUniqueOrThrow({ where: { id }, include: credentialInclude });
  await recordWebhookEvents(tx, organization.id, [credentialEvent("credential.updated", promoted)]);
  return { row: promoted, emailQueued };
}

/**
 * Revokes an issued, scheduled or expired credential, for good: its wallet page says so, it can no longer
 * be sent or changed, and the emails still queued for it are cancelled in the same transaction.
 */
export async function revokeCredential(organization: Organization, id: string, input: RevokeCredentialInput): Promise<ApiCredential> {
  const row = await db().$transaction(async (tx) => {
    const credential = await findCredential(tx, organization.id, id);
    refuseIfRevoked(credential, "revoked again");
    if (credential.status === "draft") throw conflict("A draft credential cannot be revoked (it was never issued); delete it instead.");
    // The conditional update comes first: it takes the row, so of concurrent revokes exactly one goes on.
    const { count } = await tx.credential.updateMany({
      where: { id, organizationId: organization.id, revokedAt: null, status: { not: "draft" } },
      // A scheduled credential's pending email must not go out when its date comes.
      data: { revokedAt: new Date(), revocationReason: input.reason ?? null, sendPending: false },
    });
    if (count !== 1) throw conflict("This credential was revoked by another request; revocation is final.");
    await cancelQueuedEmails(tx, id);
    await cancelExpiryNotices(tx, id);
    const revoked = await findCredential(tx, organization.id, id);
    await recordWebhookEvents(tx, organization.id, [credentialEvent("credential.revoked", revoked)]);
    return revoked;
  });
  return serializeCredential(row);
}

/** Deletes a credential with its interactions and preview versions; queued email is cancelled and cached previews removed. */
export async function deleteCredential(organization: Organization, id: string): Promise<void> {
  const digests = await db().$transaction(async (tx) => {
    await findCredential(tx, organization.id, id);
    const versions = await tx.previewVersion.findMany({ where: { credentialId: id }, select: { digest: true } });
    await cancelQueuedEmails(tx, id);
    await tx.credential.delete({ where: { id } });
    await recordWebhookEvents(tx, organization.id, [{ type: "credential.deleted", data: () => ({ id }) }]);
    return versions.map((v) => v.digest);
  });
  forgetPreviewDigests(digests);
  await previewStore().delete(digests.flatMap(previewKeys));
}

/**
 * Issues one scheduled credential inside `tx` and queues the email it was created to send.
 * Returns whether it was promoted (false if something else issued it first) and whether an email was queued.
 */
async function promoteScheduledWithin(tx: Tx, organizationId: string, id: string): Promise<{ promoted: boolean; emailQueued: boolean }> {
  const { count } = await tx.credential.updateMany({ where: { id, status: "scheduled" }, data: { status: "issued" } });
  if (count !== 1) return { promoted: false, emailQueued: false };
  const credential = await findCredential(tx, organizationId, id);
  if (!credential.sendPending) {
    await recordWebhookEvents(tx, organizationId, [credentialEvent("credential.issued", credential)]);
    return { promoted: true, emailQueued: false };
  }
  const group = await tx.group.findUniqueOrThrow({ where: { id: credential.groupId }, select: groupSelect });
  const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { id: true, name: true } });
  await queueCredentialEmail(tx, organization, credential, group);
  await tx.credential.update({ where: { id }, data: { sendPending: false } });
  await recordWebhookEvents(tx, organizationId, [
    credentialEvent("credential.issued", credential),
    credentialEvent("credential.sent", credential),
  ]);
  return { promoted: true, emailQueued: true };
}

/** Issues scheduled credentials whose date has come and queues the email they were created to send. Returns how many. */
export async function promoteDueScheduledCredentials(now = new Date()): Promise<number> {
  const due = await db().credential.findMany({
    where: { status: "scheduled", issueDate: { lte: todayUtc(now) } },
    select: { id: true, organizationId: true },
    orderBy: [{ issueDate: "asc" }, { id: "asc" }],
    take: 500,
  });
  let promoted = 0;
  for (const { id, organizationId } of due) {
    // One credential that cannot be promoted must not hold back the others (it is retried next round).
    try {
      if ((await db().$transaction((tx) => promoteScheduledWithin(tx, organizationId, id))).promoted) promoted++;
    } catch (error) {
      log.error("scheduled_issue_failed", { credentialId: id, ...errorSummary(error) });
    }
  }
  return promoted;
}
