// "Issue selected", "Send selected" and "Revoke selected" on the credentials table: the same domain
// services as the API's POST /v1/credentials/{id}/issue, /send and /revoke, once per selected id, each
// in its own transaction, so one refused credential (a draft without email, the free plan's quota) does
// not hold back the others. Every answer counts each outcome and names the reason of each refused row,
// whatever the table's filter showed.
//
// Nothing surprises: send and revoke first answer what they would do (`previewBulk`: how many would be
// emailed for the first time, how many were emailed already); the confirmed request then carries the
// newest email each row had when the person confirmed, and a row emailed since (a double click, a
// second tab) is left alone and reported as such. Issue and revoke are idempotent by their state rules
// (a second issue finds the credential issued, a second revoke finds it revoked) and report that as
// "already", not as a failure.
//
// Ids come from the browser and are only ever looked up within the member's organization (the services
// scope every read by it): another organization's id is "not found", like an unknown one.
import { z } from "zod";
import { ApiError, invalidField, invalidFields } from "@/lib/core/errors";
import { LIMIT_MAX } from "@/lib/core/pagination";
import { safeParseWithDetails } from "@/lib/core/validation";
import { RevokeCredentialBody } from "@/lib/credentials/schema";
import { getCredential, issueCredential, revokeCredential, sendCredentialOnce, type SendOnceOutcome } from "@/lib/credentials/service";
import { latestCredentialEmails } from "@/lib/mail/outbox";
import { errorSummary, log } from "@/lib/log";
import type { Caller } from "@/lib/organizations/service";

/** At most a page of the table (the search API's largest page) per action. */
export const BULK_MAX = LIMIT_MAX;
/** Credential ids are short; anything longer is not one. */
const ID_MAX_LENGTH = 200;

type Organization = Caller["organization"];
export type BulkIntent = "issue" | "send" | "revoke";
export type BulkRequest = {
  intent: BulkIntent;
  ids: string[];
  /** Send: email credentials that were emailed already, too. */
  sendAgain: boolean;
  /** Send: the newest email of each id when the person confirmed (null: none); absent: no confirmation step. */
  seen: Record<string, string | null> | null;
  /** Revoke: one reason for all (optional). */
  reason?: string;
};
export type BulkRow = { id: string; name: string; message: string };
export type BulkOutcome = {
  intent: BulkIntent;
  done: number;
  /** Left as they were because the action had already happened to them (issued, emailed, revoked). */
  already: BulkRow[];
  refused: BulkRow[];
  summary: string;
};

const Intent = z.enum(["issue", "send", "revoke"]);
const Seen = z.record(z.string().max(ID_MAX_LENGTH), z.string().max(ID_MAX_LENGTH).nullable());

/** The selected ids of the form: one `id` entry per selected row; duplicates count once. */
function readIds(form: FormData): string[] {
  const ids: string[] = [];
  for (const entry of form.getAll("id")) {
    if (typeof entry !== "string") throw invalidField("id", "must be credential ids, not files");
    const id = entry.trim();
    if (id === "") continue;
    if (id.length > ID_MAX_LENGTH) throw invalidField("id", `is not a credential id (longer than ${ID_MAX_LENGTH} characters)`);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) throw invalidField("id", "Select at least one credential.");
  if (ids.length > BULK_MAX) throw invalidField("id", `Select at most ${BULK_MAX} credentials at once (${ids.length} were selected).`);
  return ids;
}

/** The preview's form: `intent` and the ids. */
export function readPreviewRequest(form: FormData): { intent: BulkIntent; ids: string[] } {
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw invalidField("intent", 'must be "issue", "send" or "revoke"');
  return { intent: intent.data, ids: readIds(form) };
}

/** The action's form: `intent`, the ids, and for send `sendAgain` and `seen` (JSON), for revoke `reason`. */
export function readBulkRequest(form: FormData): BulkRequest {
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw invalidField("intent", 'must be "issue", "send" or "revoke"');
  const ids = readIds(form);
  let seen: BulkRequest["seen"] = null;
  const seenText = form.get("seen");
  if (typeof seenText === "string" && seenText !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(seenText);
    } catch {
      throw invalidField("seen", "must be the confirmation's JSON");
    }
    const checked = Seen.safeParse(parsed);
    if (!checked.success) throw invalidField("seen", "must be the confirmation's JSON");
    seen = checked.data;
  }
  const request: BulkRequest = { intent: intent.data, ids, sendAgain: form.get("sendAgain") === "1", seen };
  if (intent.data === "revoke") {
    // The API's rule for the reason, with its message: empty means "no reason".
    const reason = typeof form.get("reason") === "string" ? (form.get("reason") as string) : "";
    const parsed = safeParseWithDetails(RevokeCredentialBody, reason.trim() === "" ? {} : { reason });
    if (!parsed.ok) throw invalidFields(parsed.details);
    if (parsed.data.reason !== undefined) request.reason = parsed.data.reason;
  }
  return request;
}

/** What the table calls a credential: its recipient's name, or its id when there is no such credential here. */
async function nameOf(organization: Organization, id: string): Promise<string> {
  try {
    return (await getCredential(organization, id)).attributes["recipient.name"] ?? id;
  } catch {
    return id;
  }
}

/** "3 Mar" (UTC): when a credential was emailed, as the table says it. */
export function shortDate(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
}

function notSentAgain(outcome: Extract<SendOnceOutcome, { queued: false }>): string {
  const { latest, reason } = outcome;
  if (reason === "changed") return "emailed by another request after you confirmed; not sent again";
  if (reason === "waiting" || latest.status === "queued") return "an email to it is already waiting to go out; not sent twice";
  return `already emailed${latest.sentAt ? ` on ${shortDate(latest.sentAt)}` : ""}; not sent again`;
}

type RowOutcome = { kind: "done" } | { kind: "already"; message: string } | { kind: "refused"; message: string };

async function applyToOne(organization: Organization, request: BulkRequest, id: string): Promise<RowOutcome> {
  try {
    if (request.intent === "issue") {
      await issueCredential(organization, id);
      return { kind: "done" };
    }
    if (request.intent === "revoke") {
      await revokeCredential(organization, id, request.reason !== undefined ? { reason: request.reason } : {});
      return { kind: "done" };
    }
    const seen = request.seen ? (id in request.seen ? request.seen[id] : undefined) : undefined;
    const sent = await sendCredentialOnce(organization, id, { again: request.sendAgain, seenEmailId: seen });
    return sent.queued ? { kind: "done" } : { kind: "already", message: notSentAgain(sent) };
  } catch (error) {
    if (!(error instanceof ApiError)) {
      log.error("dashboard_bulk_action_failed", { intent: request.intent, ...errorSummary(error) });
      return { kind: "refused", message: "Something went wrong on our side; please try again." };
    }
    // The state rules refused it; when that is because it already happened, say so rather than "refused".
    if (error.code === "conflict") {
      const now = await getCredential(organization, id).catch(() => null);
      if (request.intent === "issue" && now && now.status !== "draft") return { kind: "already", message: `already ${now.status}` };
      if (request.intent === "revoke" && now?.revokedAt)
        return { kind: "already", message: `already revoked on ${now.revokedAt.slice(0, 10)}` };
    }
    return { kind: "refused", message: error.message };
  }
}

export async function applyToCredentials(organization: Organization, request: BulkRequest): Promise<BulkOutcome> {
  let done = 0;
  const already: BulkRow[] = [];
  const refused: BulkRow[] = [];
  for (const id of request.ids) {
    const outcome = await applyToOne(organization, request, id);
    if (outcome.kind === "done") {
      done++;
      continue;
    }
    const row = { id, name: await nameOf(organization, id), message: outcome.message };
    (outcome.kind === "already" ? already : refused).push(row);
  }
  return { intent: request.intent, done, already, refused, summary: summarize(request.intent, done, already.length, refused.length) };
}

const WORDS: Record<BulkIntent, { done: (n: number) => string; already: string }> = {
  issue: { done: () => "issued", already: "already issued" },
  send: { done: (n) => (n === 1 ? "email queued" : "emails queued"), already: "already emailed (not sent again)" },
  revoke: { done: () => "revoked", already: "already revoked" },
};

/** "3 issued, 2 already issued, 1 refused:" (the refused rows follow, one per line, with their reasons). */
export function summarize(intent: BulkIntent, done: number, already: number, refused: number): string {
  const words = WORDS[intent];
  const parts = [`${done} ${words.done(done)}`];
  if (already > 0) parts.push(`${already} ${words.already}`);
  if (refused > 0) parts.push(`${refused} refused`);
  return `${parts.join(", ")}${refused > 0 ? ":" : "."}`;
}

/** One selected row as the confirmation counts it. */
export type PreviewRow = { id: string; name: string; message: string };
export type BulkPreview = {
  intent: BulkIntent;
  /** Would be done: emailed for the first time, issued, revoked. */
  ready: PreviewRow[];
  /** Already done: for send, emailed (sent, or waiting to go out), each with when. */
  already: PreviewRow[];
  /** Would be refused, each with the reason (the same rules as the action). */
  refused: PreviewRow[];
  /** Send: the newest email of each selected id now (null: none), for the confirmed request. */
  seen: Record<string, string | null>;
};

/**
 * What the action would do with these ids, for its confirmation; writes nothing. The action itself
 * decides again, under each credential's lock: the preview can only be out of date, never wrong in
 * what it makes happen.
 */
export async function previewBulk(organization: Organization, intent: BulkIntent, ids: string[]): Promise<BulkPreview> {
  const preview: BulkPreview = { intent, ready: [], already: [], refused: [], seen: {} };
  const emails = await latestCredentialEmails(organization.id, ids);
  for (const id of ids) {
    const credential = await getCredential(organization, id).catch(() => null);
    if (!credential) {
      preview.refused.push({ id, name: id, message: "Credential not found." });
      continue;
    }
    const row = (message: string) => ({ id, name: credential.attributes["recipient.name"] ?? id, message });
    const revoked = credential.revokedAt !== null;
    if (intent === "issue") {
      if (credential.status === "draft") preview.ready.push(row("will be issued"));
      else preview.already.push(row(`already ${revoked ? "revoked" : credential.status}`));
      continue;
    }
    if (intent === "revoke") {
      if (revoked) preview.already.push(row(`already revoked on ${credential.revokedAt!.slice(0, 10)}`));
      else if (credential.status === "draft")
        preview.refused.push(row("A draft cannot be revoked (it was never issued); delete it instead."));
      else preview.ready.push(row("will be revoked"));
      continue;
    }
    const latest = emails.get(id);
    preview.seen[id] = latest?.id ?? null;
    if (revoked) preview.refused.push(row("revoked; a revoked credential is not sent"));
    else if (credential.status !== "issued")
      preview.refused.push(row(`only issued credentials can be sent; this one is ${credential.status}`));
    else if (!credential.recipient) preview.refused.push(row("no recipient email address to send it to"));
    else if (latest && (latest.status === "sent" || latest.status === "queued"))
      preview.already.push(
        row(latest.status === "sent" && latest.sentAt ? `emailed ${shortDate(latest.sentAt)}` : "email waiting to go out"),
      );
    else
      preview.ready.push(
        row(
          latest
            ? `will be emailed (the last email ${latest.status === "failed" ? "failed" : "was cancelled"})`
            : "will be emailed for the first time",
        ),
      );
  }
  return preview;
}
