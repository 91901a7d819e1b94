// The email that goes with a credential, built from its group's template (subject, HTML and text
// bodies with the same [attribute] placeholders as designs). A field the group leaves empty falls
// back to the built-in template. Values are escaped in the HTML body; the template itself is the
// issuer's own markup.
import { PLACEHOLDER } from "../render/document";
import { substitute, type AttributeValues } from "../render/attributes";

export type EmailTemplate = { subject: string | null; html: string | null; text: string | null };
export type RenderedEmail = { subject: string; html: string; text: string };

/** How the organization's own look enters the built-in email; every field is optional. */
export type EmailBranding = {
  /** `#rrggbb`; anything else is ignored. */
  brandColor?: string | null;
  /** Absolute URL of the organization's logo. */
  logoUrl?: string | null;
  /** Absolute URL of the credential's first design as PNG, with its size in the email. */
  certificateImage?: { url: string; width: number; height: number } | null;
  /** Replies reach the organization (the message's Reply-To); the body says so. */
  contactEmail?: string | null;
};

const DEFAULT_COLOR = "#1d4ed8";
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** White or near-black, whichever reads better on the button's colour (WCAG relative luminance). */
function textColorOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast against white is (1.05)/(L+0.05); against #111827 (L≈0.0116) it is (L+0.05)/0.0616.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0616 ? "#ffffff" : "#111827";
}

const DEFAULT_TEXT = [
  "Hello [recipient.name],",
  "",
  "[organization.name] has issued you the credential “[group.name]”.",
  "",
  "View, download and share it here:",
  "[credential.url]",
  "",
  "Credential ID: [credential.id]",
  "Issued: [credential.issueDate]",
];

/**
 * The built-in HTML body. Our own URLs and the validated colour are written in here (escaped);
 * every value from people (names) stays a placeholder, filled in escaped like any other.
 */
function defaultHtml(branding: EmailBranding): string {
  const color = branding.brandColor && HEX_COLOR.test(branding.brandColor) ? branding.brandColor.toLowerCase() : DEFAULT_COLOR;
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="[organization.name]" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0">`
    : "";
  const image = branding.certificateImage;
  const certificate = image
    ? `<p style="margin:0 0 24px"><a href="[credential.url]"><img src="${escapeHtml(image.url)}" width="${Math.round(image.width)}" height="${Math.round(image.height)}" alt="Your credential “[group.name]”, issued to [recipient.name] by [organization.name]" style="display:block;width:100%;max-width:${Math.round(image.width)}px;height:auto;border:1px solid #e5e7eb;border-radius:6px"></a></p>`
    : "";
  const reply = branding.contactEmail
    ? `<br>Questions? Reply to this email to reach [organization.name].`
    : "";
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;border-top:6px solid ${color};padding:32px">
<tr><td>
${logo}<p style="margin:0 0 8px;font-size:14px;color:#6b7280">[organization.name]</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">You have earned “[group.name]”</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">Hello [recipient.name], [organization.name] has issued you a credential. View it, download it as PNG or PDF, and share it.</p>
${certificate}<p style="margin:0 0 24px"><a href="[credential.url]" style="display:inline-block;background:${color};color:${textColorOn(color)};text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">View your credential</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">Or open this link: <a href="[credential.url]" style="color:${color}">[credential.url]</a><br>Credential ID: [credential.id] · Issued [credential.issueDate]${reply}</p>
</td></tr></table></td></tr></table>
</body></html>`;
}

/** The built-in template for an email with this branding. */
export function defaultEmailTemplate(branding: EmailBranding = {}): { subject: string; text: string; html: string } {
  const text = branding.contactEmail ? [...DEFAULT_TEXT, "", "Questions? Reply to this email to reach [organization.name]."] : DEFAULT_TEXT;
  return { subject: "[organization.name] issued you a credential: [group.name]", text: text.join("\n"), html: defaultHtml(branding) };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const DATES = { locale: "en-US", dateStyle: "long" } as const;

/** Attributes whose value a mail client may follow or load. */
const URL_ATTRIBUTE = /(\s(?:href|src|action|formaction|background|poster)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const SAFE_URL_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/**
 * A URL attribute whose value a placeholder fills in is filled with the raw values, then kept only
 * when the result is an absolute http(s) or mailto URL, as the URL parser (and so a mail client) reads
 * it: a recipient name or custom attribute of "javascript:..." becomes "#", not a link that runs it.
 */
function fillUrlAttributes(html: string, values: AttributeValues): string {
  return html.replace(URL_ATTRIBUTE, (whole, lead: string, double?: string, single?: string, bare?: string) => {
    const value = double ?? single ?? bare ?? "";
    if (!PLACEHOLDER_IN_TEXT.test(value)) return whole;
    const url = substitute(value, values, DATES).trim();
    const safe = SAFE_URL_SCHEMES.has(URL.parse(url)?.protocol ?? "") ? url : "#";
    return `${lead}"${escapeHtml(safe)}"`;
  });
}
const PLACEHOLDER_IN_TEXT = new RegExp(PLACEHOLDER.source);

/**
 * Fills the template (the group's fields, the built-in one where they are empty). `branding` shapes
 * the built-in HTML body only: a group's own HTML is the issuer's markup, used as it is.
 */
export function renderEmail(template: EmailTemplate, values: AttributeValues, branding: EmailBranding = {}): RenderedEmail {
  const fallback = defaultEmailTemplate(branding);
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? v : escapeHtml(v)]));
  return {
    // A subject is one line whatever the values hold.
    subject: substitute(template.subject ?? fallback.subject, values, DATES).replace(/\s+/g, " ").trim(),
    html: substitute(fillUrlAttributes(template.html ?? fallback.html, values), escaped, DATES),
    text: substitute(template.text ?? fallback.text, values, DATES),
  };
}

/**
 * An HTML body for a plain-text one (what the dashboard's email form writes): the text escaped, blank
 * lines as paragraphs, line breaks kept, and a line that is only `[credential.url]` as a button, so
 * HTML mail clients show the issuer's words rather than the built-in body.
 */
export function htmlForPlainText(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      if (p === "[credential.url]") {
        return `<p style="margin:0 0 16px"><a href="[credential.url]" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">View your credential</a></p>`;
      }
      const body = escapeHtml(p)
        .split("\n")
        .map((line) => line.replace(/\[credential\.url\]/g, `<a href="[credential.url]" style="color:#1d4ed8">[credential.url]</a>`))
        .join("<br>");
      return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${body}</p>`;
    });
  return `<!doctype html>
<html><body style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
${paragraphs.join("\n")}
</td></tr></table></td></tr></table>
</body></html>`;
}
