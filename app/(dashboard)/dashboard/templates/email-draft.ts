// The email a template form holds now, saved or not: what the live preview shows and a test sends.
import { safeParseWithDetails } from "@/lib/core/validation";
import { emailTemplate, MAX_EMAIL_TEXT } from "@/lib/groups/schema";
import { isSupportedLocale } from "@/lib/i18n/locales";
import type { EmailDraft } from "@/lib/mail/test-email";
import { defaultEmailTemplate, type RenderedEmail } from "@/lib/mail/template";
import { formText } from "@/app/form-text";

export type EmailPreview = RenderedEmail & { fieldErrors: Record<string, string> };

const text = (form: FormData, name: string) => formText(form, name).trim();

/**
 * The subject a template saves: the one written, else (own text without a subject) the built-in
 * subject's pattern in the template's language, "[organization.name] issued you a credential:
 * [group.name]", as the form promises. Both empty: none (the built-in email).
 */
export function subjectOrDefault(form: FormData): string {
  const subject = text(form, "emailSubject");
  if (subject || !text(form, "emailText")) return subject;
  const language = text(form, "language");
  return defaultEmailTemplate({}, isSupportedLocale(language) ? language : undefined).subject;
}

/** The draft and the problems saving it would report, keyed like the form's fields. */
export function emailDraftFrom(form: FormData): { draft: EmailDraft; fieldErrors: Record<string, string> } {
  const subject = subjectOrDefault(form);
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
