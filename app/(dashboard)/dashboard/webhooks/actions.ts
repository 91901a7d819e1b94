"use server";
import { revalidatePath } from "next/cache";
import { invalidFields } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { requireMember } from "@/lib/auth/member";
import { refusedArguments, runFormAction, type FormState } from "@/lib/dashboard/form-state";
import { CreateWebhookBody } from "@/lib/webhooks/schema";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "@/lib/webhooks/service";
import { formText } from "@/app/form-text";

export type ShownSecret = { url: string; secret: string };

const PAGE = "/dashboard/webhooks";
const text = (form: FormData, name: string) => formText(form, name).trim();

export async function createWebhookAction(_previous: FormState<ShownSecret>, form: FormData): Promise<FormState<ShownSecret>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    // The API's request body, so the API's rules and messages apply unchanged.
    const description = text(form, "description");
    const parsed = safeParseWithDetails(CreateWebhookBody, {
      url: text(form, "url"),
      events: form.getAll("events").map(String),
      ...(description ? { description } : {}),
    });
    if (!parsed.ok) throw invalidFields(parsed.details.map((d) => ({ ...d, path: d.path.replace(/\[\d+\]$/, "") })));
    const created = await createWebhookEndpoint(member.organization.id, parsed.data);
    revalidatePath(PAGE);
    return { url: created.url, secret: created.secret };
  });
}

export async function rotateWebhookSecretAction(_previous: FormState<ShownSecret>, form: FormData): Promise<FormState<ShownSecret>> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    const rotated = await rotateWebhookSecret(member.organization.id, text(form, "id"));
    revalidatePath(PAGE);
    return { url: rotated.url, secret: rotated.secret };
  });
}

export async function setWebhookEnabledAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    await updateWebhookEndpoint(member.organization.id, text(form, "id"), { enabled: text(form, "enabled") === "true" });
    revalidatePath(PAGE);
    return undefined;
  });
}

export async function deleteWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    await deleteWebhookEndpoint(member.organization.id, text(form, "id"));
    revalidatePath(PAGE);
    return undefined;
  }, "Endpoint deleted.");
}

export async function retryWebhookDeliveryAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!(form instanceof FormData)) return refusedArguments();
  const member = await requireMember();
  return runFormAction(async () => {
    await retryWebhookDelivery(member.organization.id, text(form, "id"), text(form, "eventId"));
    revalidatePath(PAGE);
    return undefined;
  }, "Queued; refresh to see the attempt.");
}
