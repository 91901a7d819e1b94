// The email a template form holds now, saved or not: what the live preview shows and a test sends.
import { safeParseWithDetails } from "@/lib/core/validation";
import { emailTemplate, MAX_EMAIL_TEXT } from "@/lib/groups/schema";
import { isSupportedLocale } from "@/lib/i18n/locales";
import type { EmailDraft } from "@/lib/mail/test-email";
import type { RenderedEmail } from "@/lib/mail/template";
import { formText } from "@/app/form-text";

export type EmailPreview = RenderedEmail & { fieldErrors: Record<string, string> };

const text = (form: FormData, name: string) => formText(form, name).trim();

/** The draft and the problems saving it would report, keyed like the form's fields. */
export function emailDraftFrom(form: FormData): { draft: EmailDraft; fieldErrors: Record<string, string> } {
  const subject = text(form, "emailSubject");
  const body = text(form, "emailText");
  const fieldErrors: Record<string, string> = {};
  if (subject || body) {
    const parsed = safeParseWithDetails(emailTemplate, { subject, text: body || null, html: null });
    if (!parsed.ok) for (const d of parsed.details) fieldErrors[`emailTemplate.${d.path}`] ??= d.message;
  }
  const language = text(form, "language");
  return {
    draft: {
      groupName: text(form, "name") || "Your template",
      language: isSupportedLocale(language) ? language : null,
      // Text over the limit is refused for that alone, and not rendered either.
      template: { subject: subject || null, html: null, text: body && body.length <= MAX_EMAIL_TEXT ? body : null },
      designId: form.getAll("designIds").map(String)[0] ?? null,
    },
    fieldErrors,
  };
}
