"use server";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { PasswordResetRequestInput } from "@/lib/accounts/schema";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { currentClientAddress } from "@/lib/auth/client-address";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { formText } from "@/app/form-text";

export async function requestPasswordResetAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(PasswordResetRequestInput, { email: formText(form, "email").trim() });
    if (!parsed.ok) throw invalidFields(parsed.details);
    await requestPasswordReset({ email: parsed.data.email, clientAddress: await currentClientAddress() });
    return undefined;
  });
}
