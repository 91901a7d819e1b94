"use server";
import { revalidatePath } from "next/cache";
import { ApiError, invalidField } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { tokenName } from "@/lib/organizations/schema";
import { createApiToken, revokeApiToken } from "@/lib/organizations/service";
import { formText } from "@/app/form-text";

export type NewToken = { token: string; name: string; prefix: string };

export async function createTokenAction(_previous: FormState<NewToken>, form: FormData): Promise<FormState<NewToken>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const name = tokenName.safeParse(form.get("name") ?? "");
    if (!name.success) throw invalidField("name", name.error.issues[0]!.message);
    const created = await createApiToken(member.organization.id, name.data, member.user.id);
    revalidatePath("/dashboard/tokens");
    return { token: created.token, name: created.name, prefix: created.prefix };
  });
}

export async function revokeTokenAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    // Scoped to the member's organization: a prefix from another organization is "not found".
    const outcome = await revokeApiToken(formText(form, "prefix"), member.organization.id);
    if (outcome === "not_found") throw new ApiError("not_found", "There is no such token in your organization.");
    revalidatePath("/dashboard/tokens");
    return undefined;
  }, "Token revoked.");
}
