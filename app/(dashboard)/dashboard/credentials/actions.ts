"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { requireMember } from "@/lib/auth/member";
import { CreateCredentialBody, RevokeCredentialBody, UpdateCredentialBody } from "@/lib/credentials/schema";
import {
  createCredential,
  createIssueSendCredential,
  deleteCredential,
  issueCredential,
  revokeCredential,
  sendCredentialOnce,
  updateCredential,
} from "@/lib/credentials/service";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { undrawableText } from "@/lib/credentials/undrawable-text";
import { acknowledgementOf, undrawableView, type CreateCredentialOutcome } from "./undrawable-warning";
import { editRequest } from "./[id]/edit-request";
import { applyToCredentials, previewBulk, readBulkRequest, readPreviewRequest, type BulkOutcome, type BulkPreview } from "./bulk";
import { formText } from "@/app/form-text";

const text = (form: FormData, name: string) => formText(form, name).trim();

/**
 * "Issue and send" / "Save as draft". When a design of the template cannot draw the credential's text
 * (characters no bundled font has), "Issue and send" writes nothing and answers with the designs and
 * characters instead; the form asks, and only a second submission that acknowledges exactly these
 * designs and characters issues. A draft is saved either way, with the same warning shown.
 */
export async function createCredentialAction(
  _previous: FormState<CreateCredentialOutcome>,
  form: FormData,
): Promise<FormState<CreateCredentialOutcome>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async (): Promise<CreateCredentialOutcome> => {
    const body = {
      groupId: text(form, "groupId"),
      recipient: { name: text(form, "recipientName"), ...(text(form, "recipientEmail") ? { email: text(form, "recipientEmail") } : {}) },
      ...(text(form, "issueDate") ? { issueDate: text(form, "issueDate") } : {}),
      ...(text(form, "expiryDate") ? { expiryDate: text(form, "expiryDate") } : {}),
    };
    const parsed = safeParseWithDetails(CreateCredentialBody, body);
    if (!parsed.ok) throw invalidFields(parsed.details);
    const issuing = form.get("intent") === "issue-send";
    const undrawable = undrawableView(
      await undrawableText(member.organization, parsed.data.groupId, {
        recipientName: parsed.data.recipient.name,
        issueDate: parsed.data.issueDate,
        expiryDate: parsed.data.expiryDate,
        customAttributes: parsed.data.customAttributes,
      }),
    );
    const acknowledgement = acknowledgementOf(undrawable);
    if (issuing && undrawable.length > 0 && form.get("acknowledged") !== acknowledgement)
      return { kind: "confirm", undrawable, acknowledgement };
    const credential = issuing
      ? await createIssueSendCredential(member.organization, parsed.data)
      : await createCredential(member.organization, parsed.data);
    revalidatePath("/dashboard/credentials");
    return { kind: "created", id: credential.id, status: credential.status, undrawable };
  });
}

/**
 * A row's "Issue", "Send email" and (confirmed) "Send again". A send never doubles an email: the first
 * send of a credential already emailed (a double click) and a "Send again" whose confirmation saw an
 * older email than there is now (another tab) change nothing, and say so.
 */
export async function credentialAction(_previous: FormState<string>, form: FormData): Promise<FormState<string>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "id");
  const intent = form.get("intent");
  return runFormAction(async () => {
    if (intent === "issue") {
      await issueCredential(member.organization, id);
      revalidatePath("/dashboard/credentials", "layout");
      return "Issued.";
    }
    const again = form.get("again") === "1";
    const seen = text(form, "seen");
    const sent = await sendCredentialOnce(member.organization, id, { again, ...(again ? { seenEmailId: seen || null } : {}) });
    revalidatePath("/dashboard/credentials", "layout");
    return sent.queued ? "Email queued." : "Already emailed; not sent again.";
  });
}

/** "Revoke" on a credential's page, after its confirmation step: the same service as POST /v1/credentials/{id}/revoke. */
export async function revokeCredentialAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "id");
  return runFormAction(async () => {
    // An empty reason field means "no reason", as leaving `reason` out does in the API.
    const reason = formText(form, "reason");
    const parsed = safeParseWithDetails(RevokeCredentialBody, reason.trim() === "" ? {} : { reason });
    if (!parsed.ok) throw invalidFields(parsed.details);
    await revokeCredential(member.organization, id, parsed.data);
    revalidatePath("/dashboard/credentials", "layout");
    return undefined;
  }, "Revoked.");
}

/**
 * "Save changes" on a credential's page: the changed fields as a PATCH body, parsed with the API's
 * schema and applied by the API's service (`PATCH /v1/credentials/{id}`), so the same input is accepted
 * or refused with the same messages. A refusal changes nothing (the service's transaction).
 */
export async function updateCredentialAction(
  _previous: FormState<{ changed: boolean }>,
  form: FormData,
): Promise<FormState<{ changed: boolean }>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "id");
  return runFormAction(async () => {
    const { body, problems } = editRequest((name) => (typeof form.get(name) === "string" ? (form.get(name) as string) : null), form.keys());
    const parsed = safeParseWithDetails(UpdateCredentialBody, body);
    if (!parsed.ok || problems.length > 0) throw invalidFields([...problems, ...(parsed.ok ? [] : parsed.details)]);
    if (Object.keys(parsed.data).length === 0) return { changed: false };
    await updateCredential(member.organization, id, parsed.data);
    revalidatePath("/dashboard", "layout");
    return { changed: true };
  });
}

/** "Delete" on a credential's page, after its confirmation step: the same service as DELETE /v1/credentials/{id}. */
export async function deleteCredentialAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  const id = text(form, "id");
  const outcome = await runFormAction(async () => {
    await deleteCredential(member.organization, id);
    revalidatePath("/dashboard", "layout");
    return undefined;
  });
  // Its page is gone: back to the table, which says what happened.
  if (outcome.status === "ok") redirect("/dashboard/credentials?deleted=1");
  return outcome;
}

/** The confirmation of "Send selected" / "Revoke selected": what it would do, counted; writes nothing. */
export async function previewBulkAction(_previous: FormState<BulkPreview>, form: FormData): Promise<FormState<BulkPreview>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const { intent, ids } = readPreviewRequest(form);
    return previewBulk(member.organization, intent, ids);
  });
}

/** "Issue selected" / "Send selected" / "Revoke selected": every selected id of the member's organization, one by one. */
export async function bulkCredentialAction(_previous: FormState<BulkOutcome>, form: FormData): Promise<FormState<BulkOutcome>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const outcome = await applyToCredentials(member.organization, readBulkRequest(form));
    revalidatePath("/dashboard/credentials", "layout");
    return outcome;
  });
}
