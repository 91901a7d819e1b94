"use server";
// The settings page's "Website domain" section: each action is one call of lib/domains.
import { revalidatePath } from "next/cache";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { checkDomainNow, claimDomain, removeDomainClaim } from "@/lib/domains/service";
import { formText } from "@/app/form-text";

function refreshPages(slug: string) {
  revalidatePath("/dashboard/settings");
  revalidatePath(`/organizations/${slug}`);
}

export async function claimDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    await claimDomain(member.organization.id, formText(form, "domain"));
    refreshPages(member.organization.slug);
    return undefined;
    // No message: the section's status says what to do next.
  });
}

/** Runs the check; its outcome (verified or what was wrong) shows in the section's status, stored with the claim. */
export async function checkDomainAction(_previous: FormState, _form: FormData): Promise<FormState> {
  const member = await requireMember();
  return runFormAction(async () => {
    await checkDomainNow(member.organization.id);
    refreshPages(member.organization.slug);
    return undefined;
  });
}

export async function removeDomainAction(_previous: FormState, _form: FormData): Promise<FormState> {
  const member = await requireMember();
  return runFormAction(async () => {
    await removeDomainClaim(member.organization.id);
    refreshPages(member.organization.slug);
    return undefined;
  }, "Domain removed. Your credentials now say that your identity is not verified.");
}
