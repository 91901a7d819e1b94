"use server";
import { revalidatePath } from "next/cache";
import { invalidField } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { updateOrganizationBranding } from "@/lib/organizations/branding";
import { removeOrganizationLogo, renameOrganization, setOrganizationLogo } from "@/lib/organizations/service";
import { formText } from "@/app/form-text";

export async function renameOrganizationAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    await renameOrganization(member.organization.id, formText(form, "name"));
    revalidatePath("/dashboard", "layout");
    return undefined;
  }, "Saved.");
}

export async function uploadLogoAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const file = form.get("logo");
    if (!(file instanceof File) || file.size === 0) throw invalidField("logo", "choose a PNG or JPEG file");
    await setOrganizationLogo(member.organization.id, Buffer.from(await file.arrayBuffer()));
    revalidatePath("/dashboard/settings");
    return undefined;
  }, "Logo updated. It shows on your credentials' wallet pages.");
}

export async function removeLogoAction(_previous: FormState, _form: FormData): Promise<FormState> {
  const member = await requireMember();
  return runFormAction(async () => {
    await removeOrganizationLogo(member.organization.id);
    revalidatePath("/dashboard/settings");
    return undefined;
  }, "Logo removed.");
}

/** The branding form sends all four fields; an empty one clears its setting. */
export async function updateBrandingAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const field = (name: string) => formText(form, name);
    await updateOrganizationBranding(member.organization.id, {
      senderName: field("senderName"),
      contactEmail: field("contactEmail"),
      brandColor: field("brandColor"),
      linkedinOrganizationId: field("linkedinOrganizationId"),
    });
    revalidatePath("/dashboard/settings");
    return undefined;
  }, "Saved. New emails and wallet pages use these settings.");
}
