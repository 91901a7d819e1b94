// "Issue selected" / "Send selected" on the credentials table: the same domain services as the API's
// POST /v1/credentials/{id}/issue and /send, once per selected id, each in its own transaction, so one
// refused credential (already issued, no email, the free plan's quota) does not hold back the others.
// Ids come from the browser and are only ever looked up within the member's organization (the
// services scope every read by it): another organization's id is "not found", like an unknown one.
import { z } from "zod";
import { ApiError, invalidField } from "@/lib/core/errors";
import { LIMIT_MAX } from "@/lib/core/pagination";
import { getCredential, issueCredential, sendCredential } from "@/lib/credentials/service";
import { errorSummary, log } from "@/lib/log";
import type { Caller } from "@/lib/organizations/service";

/** At most a page of the table (the search API's largest page) per action. */
export const BULK_MAX = LIMIT_MAX;
/** Credential ids are short; anything longer is not one. */
const ID_MAX_LENGTH = 200;

export type BulkIntent = "issue" | "send";
export type BulkRequest = { intent: BulkIntent; ids: string[] };
export type BulkFailure = { id: string; name: string; message: string };
export type BulkOutcome = { intent: BulkIntent; done: number; failures: BulkFailure[]; summary: string };

const Intent = z.enum(["issue", "send"]);

/** The action's form: `intent` and one `id` entry per selected row; duplicates count once. */
export function readBulkRequest(form: FormData): BulkRequest {
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw invalidField("intent", 'must be "issue" or "send"');
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
  return { intent: intent.data, ids };
}

/** What the table calls a credential: its recipient's name, or its id when there is no such credential here. */
async function nameOf(organization: Caller["organization"], id: string): Promise<string> {
  try {
    return (await getCredential(organization, id)).attributes["recipient.name"] ?? id;
  } catch {
    return id;
  }
}

export async function applyToCredentials(organization: Caller["organization"], request: BulkRequest): Promise<BulkOutcome> {
  let done = 0;
  const failures: BulkFailure[] = [];
  for (const id of request.ids) {
    try {
      if (request.intent === "issue") await issueCredential(organization, id);
      else await sendCredential(organization, id);
      done++;
    } catch (error) {
      let message: string;
      if (error instanceof ApiError) {
        message = error.message;
      } else {
        log.error("dashboard_bulk_action_failed", { intent: request.intent, ...errorSummary(error) });
        message = "Something went wrong on our side; please try again.";
      }
      const name = error instanceof ApiError && error.code === "not_found" ? id : await nameOf(organization, id);
      failures.push({ id, name, message });
    }
  }
  return { intent: request.intent, done, failures, summary: summarize(request.intent, done, failures.length) };
}

/** "3 issued; 1 could not be issued:" (the failures follow, one per line, with their reasons). */
export function summarize(intent: BulkIntent, done: number, failed: number): string {
  const doneText = intent === "issue" ? `${done} issued` : `${done} ${done === 1 ? "email" : "emails"} queued`;
  if (failed === 0) return `${doneText}.`;
  return `${doneText}; ${failed} could not be ${intent === "issue" ? "issued" : "sent"}:`;
}
