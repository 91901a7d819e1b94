"use server";
import { signUp } from "@/lib/accounts/service";
import { currentClientAddress } from "@/lib/auth/client-address";
import { SignUpInput } from "@/lib/accounts/schema";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { formText } from "@/app/form-text";

export async function signUpAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  return runFormAction(async () => {
    const parsed = safeParseWithDetails(SignUpInput, {
      name: form.get("name") ?? "",
      email: formText(form, "email").trim(),
      password: form.get("password") ?? "",
      organizationName: form.get("organizationName") ?? "",
    });
    if (!parsed.ok) throw invalidFields(parsed.details);
    await signUp(parsed.data, { clientAddress: await currentClientAddress() });
    return undefined;
  });
}
