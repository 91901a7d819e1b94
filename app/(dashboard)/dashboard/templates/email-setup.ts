// What the template form's email editor starts from, read on the server when the page renders.
import { listAttributes } from "@/lib/attributes/service";
import { previewEmailDraft, type EmailDraft } from "@/lib/mail/test-email";
import { isEmailAttribute } from "@/lib/render/email-markup";
import type { EmailEditorSetup } from "./template-form";

export async function emailEditorSetup(
  member: { organization: { id: string; name: string }; user: { email: string } },
  draft: EmailDraft,
): Promise<EmailEditorSetup> {
  const [attributes, preview] = await Promise.all([listAttributes(member.organization.id), previewEmailDraft(member.organization, draft)]);
  return {
    // The attributes an email can fill in (the recipient's email address is not one of them).
    placeholders: attributes.filter((a) => isEmailAttribute(a.tag)).map((a) => ({ tag: a.tag, name: a.name })),
    userEmail: member.user.email,
    initialPreview: { ...preview, fieldErrors: {} },
  };
}
