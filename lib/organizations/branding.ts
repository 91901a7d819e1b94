// How an organization presents itself beyond its name and logo: its LinkedIn company page (attached
// to "Add to profile"), its brand colour and sender name in credential emails, and the address
// recipients' replies go to. One schema, used by the dashboard's settings form and the CLI.
import { z } from "zod";
import { invalidFields } from "../core/errors";
import { singleLineText } from "../core/text";
import { safeParseWithDetails } from "../core/validation";
import { db } from "../db";

export type OrganizationBranding = {
  linkedinOrganizationId: string | null;
  brandColor: string | null;
  senderName: string | null;
  contactEmail: string | null;
};

/** An empty field (or null) clears the setting; a field left out keeps it. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable().optional());

/**
 * LinkedIn's numeric company id, as its `organizationId` parameter wants it. People find it in the
 * address of their page's admin view (linkedin.com/company/12345678/admin/), so that address, pasted
 * whole, is accepted too; the public vanity name (linkedin.com/company/acme) is not the id.
 */
const LINKEDIN_COMPANY_URL = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/company\/(\d+)(?:[/?#].*)?$/i;
export const linkedinOrganizationId = singleLineText({ trim: true }).transform((value, ctx) => {
  const id = /^\d+$/.test(value) ? value : LINKEDIN_COMPANY_URL.exec(value)?.[1];
  if (!id || id.length > 19 || /^0+$/.test(id)) {
    ctx.addIssue({
      code: "custom",
      message:
        "must be your LinkedIn company page's numeric id (the digits in linkedin.com/company/12345678/admin/), not its name or vanity address",
    });
    return z.NEVER;
  }
  return id.replace(/^0+/, "");
});

export const brandColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour like #1d4ed8")
  .transform((v) => v.toLowerCase());

export const senderName = singleLineText({ trim: true }).max(100, "must be at most 100 characters");

export const contactEmail = singleLineText({ trim: true }).pipe(
  z.email("must be a valid email address, like certificates@example.edu").max(254, "must be at most 254 characters"),
);

export const organizationBrandingInput = z.strictObject({
  linkedinOrganizationId: optional(linkedinOrganizationId),
  brandColor: optional(brandColor),
  senderName: optional(senderName),
  contactEmail: optional(contactEmail),
});

/** Checks every field given; saves all of them or, when one is wrong, none (each wrong field named). */
export async function updateOrganizationBranding(organizationId: string, input: Record<string, unknown>): Promise<void> {
  const parsed = safeParseWithDetails(organizationBrandingInput, input);
  if (!parsed.ok) throw invalidFields(parsed.details);
  await db().organization.update({ where: { id: organizationId }, data: parsed.data });
}

export async function organizationBranding(organizationId: string): Promise<OrganizationBranding> {
  return db().organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { linkedinOrganizationId: true, brandColor: true, senderName: true, contactEmail: true },
  });
}
