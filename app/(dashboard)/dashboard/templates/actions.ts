"use server";
import { revalidatePath } from "next/cache";
import { invalidFields } from "@/lib/api/errors";
import { safeParseWithDetails } from "@/lib/api/validation";
import { requireMember } from "@/lib/auth/member";
import { runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { CreateGroupBody } from "@/lib/groups/schema";
import { createGroup } from "@/lib/groups/service";

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** The form's fields as the API's request body, so the API's rules and messages apply unchanged. */
function groupBodyFrom(form: FormData): Record<string, unknown> {
  const amount = text(form, "expiryAmount");
  const subject = text(form, "emailSubject");
  const body = text(form, "emailText");
  return {
    name: text(form, "name"),
    designIds: form.getAll("designIds").map(String),
    ...(text(form, "learningEventUrl") ? { learningEventUrl: text(form, "learningEventUrl") } : {}),
    ...(amount ? { expiryPeriod: { amount: /^\d+$/.test(amount) ? Number(amount) : amount, unit: text(form, "expiryUnit") } } : {}),
    ...(subject || body ? { emailTemplate: { subject, text: body || null } } : {}),
  };
}

export async function createTemplateAction(_previous: FormState<{ id: string; name: string }>, form: FormData): Promise<FormState<{ id: string; name: string }>> {
  const member = await requireMember();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(CreateGroupBody, groupBodyFrom(form));
    if (!parsed.ok) throw invalidFields(parsed.details);
    const group = await createGroup(member.organization.id, parsed.data);
    revalidatePath("/dashboard/templates");
    return { id: group.id, name: group.name };
  });
}
