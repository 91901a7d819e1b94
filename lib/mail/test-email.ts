// A credential template's email, rendered with sample values: the dashboard's live preview and the
// test an issuer sends to themself. Both go through renderEmail, the code that writes real credentials'
// emails, and the test goes through the same outbox, so what the issuer sees is what recipients get.
import { ApiError } from "../core/errors";
import { db } from "../db";
import { getDesign } from "../designs/service";
import { getGroup } from "../groups/service";
import type { Locale } from "../i18n/locales";
import { isSupportedLocale } from "../i18n/locales";
import { rateLimitSubject, sharedLimiter } from "../rate-limit/shared-rate-limit";
import { canvasSize } from "../render/document";
import { sampleAttributeValues } from "../render/attributes";
import { walletUrl } from "../attribute-values/credential-values";
import { nudgeMailWorker } from "./nudge";
import { organizationEmailIdentity } from "./organization-identity";
import { enqueueEmail } from "./outbox";
import { renderEmail, type EmailTemplate, type RenderedEmail } from "./template";

/** An email as the template form holds it, saved or not. */
export type EmailDraft = {
  groupName: string;
  language: Locale | null;
  template: EmailTemplate;
  /** The template's first design: its sample preview stands in for the certificate image. */
  designId: string | null;
};

type Organization = { id: string; name: string };

/** As wide as the certificate image in real credentials' emails (lib/previews/credential-designs.ts). */
const EMAIL_IMAGE_WIDTH = 496;

/** Test emails a dashboard user may send: 5 in a row, then one every 20 s, counted across processes. */
const TEST_SENDS_PER_USER = { name: "dashboard.test-email", perSecond: 0.05, burst: 5 };

/** The saved template's draft, for the page's first preview. */
export async function groupEmailDraft(organization: Organization, groupId: string): Promise<EmailDraft> {
  const group = await getGroup(organization.id, groupId);
  return {
    groupName: group.name,
    language: group.language,
    template: {
      subject: group.emailTemplate?.subject ?? null,
      html: group.emailTemplate?.html ?? null,
      text: group.emailTemplate?.text ?? null,
    },
    designId: group.designIds[0] ?? null,
  };
}

async function certificateImage(organization: Organization, designId: string | null) {
  if (!designId) return null;
  try {
    const design = await getDesign(organization, designId);
    const size = canvasSize(design.document.canvas);
    return { url: design.previewUrl, width: EMAIL_IMAGE_WIDTH, height: Math.round((EMAIL_IMAGE_WIDTH * size.height) / size.width) };
  } catch (error) {
    // A design deleted meanwhile (or another organization's id): the preview goes without the image.
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  }
}

async function sampleEmail(organization: Organization, draft: EmailDraft) {
  const values = {
    ...sampleAttributeValues("certificate", { organizationName: organization.name }),
    "group.name": draft.groupName,
    "credential.url": walletUrl("00000000-0000-4000-8000-000000000000", { recipient: true }),
  };
  // The organization's sender name, Reply-To, logo and colour, as its credentials' emails have them.
  const [identity, image] = await Promise.all([
    organizationEmailIdentity(db(), organization.id),
    draft.template.html === null ? certificateImage(organization, draft.designId) : null,
  ]);
  const branding = { ...identity.branding, certificateImage: image };
  const language = draft.language && isSupportedLocale(draft.language) ? draft.language : null;
  return { values, sender: identity.sender, branding, language };
}

/** The draft's email with sample values, exactly as the mail worker would write it. */
export async function previewEmailDraft(organization: Organization, draft: EmailDraft): Promise<RenderedEmail> {
  const { values, branding, language } = await sampleEmail(organization, draft);
  return renderEmail(draft.template, values, branding, language);
}

/**
 * Queues the draft's email, with sample values and "[Test]" before its subject, to `to` (the signed-in
 * user's own address: a test never goes anywhere else). Rate-limited per user: 429 `rate_limited`.
 */
export async function sendTestEmail(organization: Organization, draft: EmailDraft, user: { id: string; email: string }): Promise<void> {
  const rate = await sharedLimiter(TEST_SENDS_PER_USER).take(rateLimitSubject(`test-email:${user.id}`));
  if (!rate.allowed) throw new ApiError("rate_limited", `Too many test emails; try again in ${rate.retryAfterSeconds} s.`);
  const { values, sender, branding, language } = await sampleEmail(organization, draft);
  const subject = `[Test] ${renderEmail(draft.template, values, branding, language).subject}`;
  await db().$transaction((tx) =>
    enqueueEmail(tx, {
      organizationId: organization.id,
      credentialId: null,
      to: user.email,
      template: { ...draft.template, subject },
      values,
      sender,
      branding,
      language,
    }),
  );
  nudgeMailWorker();
}
