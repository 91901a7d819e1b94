// POST /dashboard/templates/email-preview: the template form's email as recipients would get it, with
// sample values, written by the code that sends real emails (lib/mail/test-email.ts). A route rather
// than a server action: Next runs a page's server actions one at a time, and a preview asked for on
// every keystroke would hold back the form's own submit. It reads and changes nothing but renders.
import { currentMember } from "@/lib/auth/member";
import { previewEmailDraft } from "@/lib/mail/test-email";
import { emailDraftFrom, type EmailPreview } from "../email-draft";

export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "no-store" };
/** Far above the form's limits (20,000 characters of text): anything bigger is not a form of ours. */
const MAX_BODY_BYTES = 256 * 1024;

function refusal(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: noStore });
}

export async function POST(request: Request): Promise<Response> {
  const member = await currentMember();
  if (!member) return refusal(401, "unauthorized", "Your session has ended; sign in again.");
  if (Number(request.headers.get("content-length") ?? MAX_BODY_BYTES + 1) > MAX_BODY_BYTES) {
    return refusal(413, "payload_too_large", "The form is too large to preview.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refusal(400, "validation_error", "The form's data could not be read.");
  }
  const { draft, fieldErrors } = emailDraftFrom(form);
  const preview: EmailPreview = { ...(await previewEmailDraft(member.organization, draft)), fieldErrors };
  return Response.json(preview, { headers: noStore });
}
