"use server";
import { changePassword } from "@/lib/auth/password-change";
import { ChangePasswordInput } from "@/lib/accounts/schema";
import { signOutEverywhere } from "@/lib/accounts/sessions";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { currentClientAddress } from "@/lib/auth/client-address";
import { requireMemberSession } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";

export async function changePasswordAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const { member, sessionId } = await requireMemberSession();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(ChangePasswordInput, {
      currentPassword: form.get("currentPassword") ?? "",
      newPassword: form.get("newPassword") ?? "",
    });
    if (!parsed.ok) throw invalidFields(parsed.details);
    await changePassword({ userId: member.user.id, sessionId, clientAddress: await currentClientAddress() }, parsed.data);
    return undefined;
  }, "Password changed. Every other browser signed in to your account has been signed out; this one stays signed in.");
}

/** Ends every session of the account, this one included; the page then signs this browser out too. */
export async function signOutEverywhereAction(_previous: FormState, _form: FormData): Promise<FormState> {
  const { member } = await requireMemberSession();
  return runFormAction(async () => {
    await signOutEverywhere(member.user.id);
    return undefined;
  });
}
