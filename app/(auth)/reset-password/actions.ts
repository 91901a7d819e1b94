"use server";
import { redirect } from "next/navigation";
import { resetPassword } from "@/lib/auth/password-reset";
import { PasswordResetInput } from "@/lib/accounts/schema";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { formText } from "@/app/form-text";

export async function resetPasswordAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const state = await runFormAction(async () => {
    const parsed = safeParseWithDetails(PasswordResetInput, { token: formText(form, "token"), newPassword: form.get("newPassword") ?? "" });
    if (!parsed.ok) throw invalidFields(parsed.details);
    await resetPassword(parsed.data);
    return undefined;
  });
  if (state.status === "ok") redirect("/signin?passwordReset=1");
  return state;
}
