// What a credential email is made of, kept on its outbox row: the issuing transaction writes it, the
// mail worker composes the email from it when it sends it. Composing is the worker's CPU, not the
// issuing request's; a retry composes the same email again from the same row.
import type { Locale } from "../i18n/locales";
import type { AttributeValues } from "../render/attributes";
import { renderEmail, type EmailBranding, type EmailTemplate, type RenderedEmail } from "./template";

export type EmailComposition = {
  template: EmailTemplate;
  values: AttributeValues;
  branding: EmailBranding;
  language: Locale | null;
  /** The preview `branding.certificateImage` shows and the design revision it is drawn from: checked for drawable text when composing. */
  certificate: CertificatePreview | null;
};

export type CertificatePreview = { digest: string; revisionId: string };

/**
 * The row's JSON. Keys in one fixed order, so that two compositions of the same email are the same
 * text: a repeated send finds the queued one by comparing it.
 */
export function serializeComposition(composition: EmailComposition): string {
  const { template, values, branding, language, certificate } = composition;
  return JSON.stringify({
    template: { subject: template.subject, html: template.html, text: template.text },
    values: Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    branding: {
      brandColor: branding.brandColor ?? null,
      logoUrl: branding.logoUrl ?? null,
      certificateImage: branding.certificateImage ?? null,
      contactEmail: branding.contactEmail ?? null,
    },
    language,
    certificate: certificate && { digest: certificate.digest, revisionId: certificate.revisionId },
  });
}

function parseComposition(json: string): EmailComposition {
  return JSON.parse(json) as EmailComposition;
}

/**
 * The email, written from its composition. `certificateDrawable` says whether the certificate image's
 * preview can be drawn; when it cannot, the email goes without the image rather than with a broken one.
 */
export async function composeEmail(
  json: string,
  certificateDrawable: (certificate: CertificatePreview, values: AttributeValues) => Promise<boolean>,
): Promise<RenderedEmail> {
  const { template, values, branding, language, certificate } = parseComposition(json);
  const drawable = certificate === null || (await certificateDrawable(certificate, values));
  return renderEmail(template, values, drawable ? branding : { ...branding, certificateImage: null }, language);
}

/** The subject alone (the dashboard's list of a credential's emails): it never shows the image. */
export function emailSubject(json: string): string {
  const { template, values, branding, language } = parseComposition(json);
  return renderEmail(template, values, branding, language).subject;
}
