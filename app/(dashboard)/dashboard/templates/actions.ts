"use server";
import { revalidatePath } from "next/cache";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { CreateGroupBody, UpdateGroupBody } from "@/lib/groups/schema";
import { createGroup, updateGroup } from "@/lib/groups/service";
import { sendTestEmail } from "@/lib/mail/test-email";
import { emailDraftFrom, subjectOrDefault } from "./email-draft";
import { formText } from "@/app/form-text";

const text = (form: FormData, name: string) => formText(form, name).trim();

/** The form's fields as the API's request body, so the API's rules and messages apply unchanged. */
function groupBodyFrom(form: FormData): Record<string, unknown> {
  const editing = form.get("editing") === "1";
  const amount = text(form, "expiryAmount");
  const remindDays = text(form, "expiryReminderDays");
  const subject = subjectOrDefault(form);
  const body = text(form, "emailText");
  return {
    name: text(form, "name"),
    designIds: form.getAll("designIds").map(String),
    // Editing: an emptied field clears the setting; creating: it is simply not set.
    ...(text(form, "learningEventUrl") ? { learningEventUrl: text(form, "learningEventUrl") } : editing ? { learningEventUrl: null } : {}),
    // Empty: the defaults (lib/groups/achievement.ts) are shown and signed.
    ...(text(form, "description") ? { description: text(form, "description") } : editing ? { description: null } : {}),
    ...(text(form, "criteria") ? { criteria: text(form, "criteria") } : editing ? { criteria: null } : {}),
    ...(amount
      ? { expiryPeriod: { amount: /^\d+$/.test(amount) ? Number(amount) : amount, unit: text(form, "expiryUnit") } }
      : editing
        ? { expiryPeriod: null }
        : {}),
    // Empty: no reminder. Anything but digits goes to the API's validation as it was typed, for its message.
    ...(remindDays
      ? { expiryReminderDays: /^\d+$/.test(remindDays) ? Number(remindDays) : remindDays }
      : editing
        ? { expiryReminderDays: null }
        : {}),
    // Empty: no fixed language (the email in English, the wallet in each reader's language).
    ...(text(form, "language") ? { language: text(form, "language") } : editing ? { language: null } : {}),
    // The dashboard writes the text only: it is sent in the branded frame (an HTML body set through
    // the API is replaced, as the editor says).
    ...(!subject && !body && editing ? { emailTemplate: null } : {}),
    ...(subject || body ? { emailTemplate: { subject, text: body || null, html: null } } : {}),
  };
}

export async function createTemplateAction(
  _previous: FormState<{ id: string; name: string }>,
  form: FormData,
): Promise<FormState<{ id: string; name: string }>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(CreateGroupBody, groupBodyFrom(form));
    if (!parsed.ok) throw invalidFields(parsed.details);
    const group = await createGroup(member.organization.id, parsed.data);
    revalidatePath("/dashboard/templates");
    return { id: group.id, name: group.name };
  });
}

export async function updateTemplateAction(
  _previous: FormState<{ id: string; name: string }>,
  form: FormData,
): Promise<FormState<{ id: string; name: string }>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(UpdateGroupBody, groupBodyFrom(form));
    if (!parsed.ok) throw invalidFields(parsed.details);
    const group = await updateGroup(member.organization.id, text(form, "id"), parsed.data);
    revalidatePath("/dashboard/templates", "layout");
    return { id: group.id, name: group.name };
  }, "Saved.");
}

/** Emails the form's email, with sample values, to the signed-in user, through the real outbox. */
export async function sendTestEmailAction(form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const { draft, fieldErrors } = emailDraftFrom(form);
    if (Object.keys(fieldErrors).length > 0) {
      throw invalidFields(Object.entries(fieldErrors).map(([path, message]) => ({ path, message })));
    }
    await sendTestEmail(member.organization, draft, member.user);
    return undefined;
  }, `Test email sent to ${member.user.email}: it goes out through the same mail queue as credential emails and should arrive within a minute.`);
}
