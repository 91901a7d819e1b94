// The durable outbox: an email is a row written in the same transaction as the state change that
// asked for it; the worker (worker.ts) delivers it. Nothing accepted is lost across a restart.
import { config } from "../config";
import { db, type SqlClient, type Tx } from "../db";
import { rawDate } from "../db/raw-values";
import { newId } from "../db/ids";
import type { Locale } from "../i18n/locales";
import type { AttributeValues } from "../render/attributes";
import { emailSubject, serializeComposition, type CertificatePreview } from "./composition";
import { noteCredentialEmailQueued, refreshMailOutcomes } from "./credential-outcome";
import type { EmailBranding, EmailTemplate, RenderedEmail } from "./template";

function messageIdFor(outboxId: string): string {
  const host = new URL(config().publicUrl).hostname || "localhost";
  return `<${outboxId}@${host}>`;
}

/**
 * How long an email queued by a repeatable request (`send`) waits before its first attempt, so that a
 * repeat arriving meanwhile (a client retrying, or 50 parallel requests) finds it still queued and is
 * coalesced with it: the recipient gets one email, not 50.
 */
export const REPEAT_WINDOW_MS = 2_000;
/** The longest repeats may hold an email back, from its first request. */
export const MAX_REPEAT_DELAY_MS = 5 * REPEAT_WINDOW_MS;

export type EmailToQueue = {
  organizationId: string;
  credentialId: string | null;
  to: string;
  template: EmailTemplate;
  values: AttributeValues;
  /** Who it is from and who replies reach (an organization's email); absent: MAIL_FROM, no Reply-To. */
  sender?: EmailSender;
  branding?: EmailBranding;
  /**
   * The preview `branding.certificateImage` shows and its design revision: the worker checks that its
   * text can be drawn before it shows the image (an undrawable preview answers no image).
   */
  certificate?: CertificatePreview | null;
  /** The group's language: the built-in template's and the dates' (null: English). */
  language?: Locale | null;
  /**
   * `credential` (default): the credential's own email; `expiry_reminder`: a reminder that it expires soon;
   * `correction_outcome`: the answer to the recipient's name correction request.
   */
  kind?: EmailKind;
};

/** Only a `credential` email makes a credential "already emailed" (the dashboard's bulk send and its table). */
export type EmailKind = "credential" | "expiry_reminder" | "correction_outcome";

/** The display name ("<fromName> via <service>") and Reply-To, kept with the row so a retry sends the same. */
export type EmailSender = { fromName: string | null; replyTo: string | null };

/**
 * Writes the email as an outbox row and returns its id. The row keeps what the email is made of (its
 * composition); the worker writes the email from it when it sends it, so issuing writes rows and
 * composes nothing. With `coalesceRepeats`, an identical email of the same credential to the same
 * address that is still queued and not taken by a worker is the one returned instead: a repeat of a
 * request whose email has not gone out yet adds nothing, while a send once delivery has started, or of
 * a changed email, queues a new one. The caller must hold the credential's row lock, so that concurrent
 * requests see each other's rows.
 */
export async function enqueueEmail(tx: SqlClient, input: EmailToQueue, options: { coalesceRepeats?: boolean } = {}): Promise<string> {
  const composition = serializeComposition({
    template: input.template,
    values: input.values,
    branding: input.branding ?? {},
    language: input.language ?? null,
    certificate: input.certificate ?? null,
  });
  const sender = { fromName: input.sender?.fromName ?? null, replyTo: input.sender?.replyTo ?? null };
  const email = {
    organizationId: input.organizationId,
    credentialId: input.credentialId,
    to: input.to,
    ...sender,
    composition,
    kind: input.kind ?? "credential",
  };
  if (!options.coalesceRepeats || !input.credentialId) return insertOutboxRow(tx, email);
  // Only a row no worker has taken: one being delivered may already be in the recipient's inbox (the
  // relay accepts it before the worker records it sent), so a send then is a new email, as the
  // sender who just saw the first one arrive expects. A row waiting to be retried is joined. The same
  // composition is the same email: it is written from nothing else.
  const [repeated] = await tx.$queryRaw<{ id: string; createdAt: unknown }[]>`
    SELECT "id", "createdAt" FROM "EmailOutbox"
    WHERE "credentialId" = ${input.credentialId} AND "toAddress" = ${input.to}
      AND "fromName" IS NOT DISTINCT FROM ${sender.fromName} AND "replyTo" IS NOT DISTINCT FROM ${sender.replyTo}
      AND "composition" = ${composition}
      AND "status" = 'queued' AND "leaseOwner" IS NULL
    LIMIT 1`;
  if (!repeated) return insertOutboxRow(tx, email, { delayMs: REPEAT_WINDOW_MS });
  // The window restarts with each repeat (a debounce): a burst of repeats that takes longer than the
  // window to get through the database (50 parallel requests on a busy machine) still finds the email
  // queued. Never past MAX_REPEAT_DELAY_MS from the first request, so a client repeating forever does
  // not hold the email back forever. A row already tried keeps its retry time.
  const nextAttemptAt = Math.min(Date.now() + REPEAT_WINDOW_MS, rawDate(repeated.createdAt).getTime() + MAX_REPEAT_DELAY_MS);
  await tx.$executeRaw`
    UPDATE "EmailOutbox" SET "nextAttemptAt" = ${new Date(nextAttemptAt)}, "updatedAt" = ${new Date()}
    WHERE "id" = ${repeated.id} AND "status" = 'queued' AND "attempts" = 0 AND "leaseUntil" IS NULL`;
  return repeated.id;
}

/**
 * An email whose subject and bodies are already written. `organizationId` is null for account emails
 * (a password reset link), which belong to a person rather than to an organization. `delayMs` holds
 * the first attempt back.
 */
export async function enqueueRenderedEmail(
  tx: SqlClient,
  input: { organizationId: string | null; credentialId: string | null; to: string } & Partial<EmailSender> & RenderedEmail,
  options: { delayMs?: number } = {},
): Promise<string> {
  return insertOutboxRow(tx, input, options);
}

type OutboxRowInput = { organizationId: string | null; credentialId: string | null; to: string; kind?: EmailKind } & Partial<EmailSender> &
  ({ composition: string } | RenderedEmail);

async function insertOutboxRow(tx: SqlClient, input: OutboxRowInput, options: { delayMs?: number } = {}): Promise<string> {
  const id = newId("mail");
  const now = new Date();
  const firstAttemptAt = new Date(now.getTime() + (options.delayMs ?? 0));
  // A composed-later email has empty bodies until the worker writes them from its composition.
  const content =
    "composition" in input
      ? { subject: "", html: "", text: "", composition: input.composition }
      : { subject: input.subject, html: input.html, text: input.text, composition: null };
  // Plain SQL: one of these is written with every credential sent (see bench:issue).
  await tx.$executeRaw`
    INSERT INTO "EmailOutbox" ("id", "organizationId", "credentialId", "messageId", "fromName", "replyTo", "toAddress", "subject", "html", "text",
      "composition", "kind", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES (${id}, ${input.organizationId}, ${input.credentialId}, ${messageIdFor(id)}, ${input.fromName ?? null}, ${input.replyTo ?? null}, ${input.to},
      ${content.subject}, ${content.html}, ${content.text}, ${content.composition}, ${input.kind ?? "credential"}, 'queued', 0, ${firstAttemptAt}, ${now}, ${now})`;
  if ((input.kind ?? "credential") === "credential" && input.credentialId !== null && input.organizationId !== null)
    await noteCredentialEmailQueued(tx, { organizationId: input.organizationId, credentialId: input.credentialId });
  return id;
}

/**
 * Queued emails of a credential that is being deleted or revoked are not sent: the link of a deleted one
 * would not open, and a revoked one is no longer worth announcing.
 */
export async function cancelQueuedEmails(tx: Tx, credentialId: string): Promise<void> {
  const { count } = await tx.emailOutbox.updateMany({
    where: { credentialId, status: "queued" },
    data: { status: "cancelled", leaseUntil: null, leaseOwner: null },
  });
  if (count > 0) await refreshMailOutcomes(tx, { credentialIds: [credentialId] });
}

/**
 * Removes the bodies of emails whose secret stopped working (a used, replaced or expired password reset
 * link), so the database does not keep a link longer than it lives. One still queued is cancelled.
 */
export async function redactEmails(tx: Tx, outboxIds: string[], note: string): Promise<void> {
  if (outboxIds.length === 0) return;
  await tx.emailOutbox.updateMany({
    where: { id: { in: outboxIds }, status: "queued" },
    data: { status: "cancelled", leaseUntil: null, leaseOwner: null },
  });
  await tx.emailOutbox.updateMany({ where: { id: { in: outboxIds } }, data: { html: note, text: note } });
}

export type CredentialEmail = {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: { startedAt: Date; outcome: string; error: string | null }[];
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
};

/** A credential's emails, newest first, with every delivery attempt: what the dashboard shows. */
export async function credentialEmails(organizationId: string, credentialId: string): Promise<CredentialEmail[]> {
  const rows = await db().emailOutbox.findMany({
    where: { organizationId, credentialId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
    select: {
      id: true,
      toAddress: true,
      subject: true,
      composition: true,
      kind: true,
      status: true,
      nextAttemptAt: true,
      sentAt: true,
      createdAt: true,
      deliveryAttempts: { orderBy: { startedAt: "asc" }, select: { startedAt: true, outcome: true, error: true } },
    },
  });
  return rows.map(({ toAddress, deliveryAttempts, composition, subject, ...row }) => ({
    ...row,
    subject: composition === null ? subject : emailSubject(composition),
    to: toAddress,
    attempts: deliveryAttempts,
  }));
}

/** Where the newest email of a credential stands: the credentials table's "Email" column. */
export type LatestCredentialEmail = { id: string; status: string; attempts: number; sentAt: Date | null; createdAt: Date };

/**
 * The newest email of each of these credentials (one query for a whole table page); credentials that
 * never had one are missing from the map.
 */
export async function latestCredentialEmails(
  organizationId: string,
  credentialIds: readonly string[],
): Promise<Map<string, LatestCredentialEmail>> {
  const latest = new Map<string, LatestCredentialEmail>();
  if (credentialIds.length === 0) return latest;
  const rows = await db().emailOutbox.findMany({
    // The credential's own emails: a reminder that it expires is not what "emailed" means here.
    where: { organizationId, credentialId: { in: [...credentialIds] }, kind: "credential" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, credentialId: true, status: true, attempts: true, sentAt: true, createdAt: true },
  });
  for (const { credentialId, ...email } of rows) if (credentialId && !latest.has(credentialId)) latest.set(credentialId, email);
  return latest;
}
