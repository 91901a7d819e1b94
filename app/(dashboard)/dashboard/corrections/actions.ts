"use server";
import { invalidField } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { RejectCorrectionBody } from "@/lib/corrections/schema";
import { approveCorrectionRequest, rejectCorrectionRequest } from "@/lib/corrections/service";
import { formText } from "@/app/form-text";

// No revalidation here: the decided item says so above the queue first, then refreshes the page (and
// the navigation's count) itself (correction-forms.tsx).
export async function approveCorrectionAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    // Scoped to the member's organization: another organization's request is "not found".
    await approveCorrectionRequest(member.organization, formText(form, "id"));
    return undefined;
  }, "Approved: the credential shows the new name, and the recipient was emailed.");
}

export async function rejectCorrectionAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const body = RejectCorrectionBody.safeParse({ reason: formText(form, "reason") });
    if (!body.success) throw invalidField("reason", body.error.issues[0]!.message);
    await rejectCorrectionRequest(member.organization, formText(form, "id"), body.data);
    return undefined;
  }, "Rejected: the recipient was emailed your reason.");
}
