// The branded frame every email about a credential is written in: the organization's logo and name,
// the message, the certificate image, the button to the wallet in the brand colour, and the small
// print. The built-in email, the issuer's own text, notices and expiry reminders all use this one
// frame, so they look alike and a change to the look is made here once.
//
// What goes in is HTML that still holds `[attribute]` placeholders: the frame writes our own URLs and
// the validated colour escaped, and every value from people is filled in later, escaped, by
// renderEmail in one pass.
import { textDirection, type Locale } from "../i18n/locales";

/** How the organization's own look enters its emails; every field is optional. */
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

/** The organization's brand colour when it is a valid `#rrggbb`, else the default blue. */
export function brandColorOf(branding: EmailBranding): string {
  return branding.brandColor && HEX_COLOR.test(branding.brandColor) ? branding.brandColor.toLowerCase() : DEFAULT_COLOR;
}

/** White or near-black, whichever reads better on the button's colour (WCAG relative luminance). */
export function textColorOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast against white is (1.05)/(L+0.05); against #111827 (L≈0.0116) it is (L+0.05)/0.0616.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0616 ? "#ffffff" : "#111827";
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A paragraph of the message in the frame's type; `dir` when it should not follow the page's. */
export function messageParagraph(html: string, options: { dir?: "auto"; last?: boolean } = {}): string {
  const dir = options.dir ? ` dir="${options.dir}"` : "";
  return `<p${dir} style="margin:0 0 ${options.last ? 24 : 16}px;font-size:16px;line-height:1.5">${html}</p>`;
}

export type BrandedEmailParts = {
  language: Locale;
  branding: EmailBranding;
  /** The message (HTML with placeholders), between the organization's name and the certificate image. */
  content: string;
  /** The certificate image's alt text (HTML), shown when the branding has an image; null leaves it out. */
  certificateAlt: string | null;
  /** The wallet button's label (HTML). */
  button: string;
  /** The small print under the button (HTML), usually the wallet link written out. */
  footer: string;
};

/** The whole HTML document of an email in the organization's look. */
export function brandedEmailHtml(parts: BrandedEmailParts): string {
  const { language, branding } = parts;
  const color = brandColorOf(branding);
  const dir = textDirection(language);
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="[organization.name]" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0">`
    : "";
  const image = parts.certificateAlt === null ? null : branding.certificateImage;
  const certificate = image
    ? `<p style="margin:0 0 24px"><a href="[credential.url]"><img src="${escapeHtml(image.url)}" width="${Math.round(image.width)}" height="${Math.round(image.height)}" alt="${parts.certificateAlt}" style="display:block;width:100%;max-width:${Math.round(image.width)}px;height:auto;border:1px solid #e5e7eb;border-radius:6px"></a></p>`
    : "";
  return `<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border-radius:12px;border-top:6px solid ${color};padding:32px">
<tr><td align="${dir === "rtl" ? "right" : "left"}">
${logo}<p style="margin:0 0 8px;font-size:14px;color:#6b7280"><bdi>[organization.name]</bdi></p>
${parts.content}
${certificate}<p style="margin:0 0 24px"><a href="[credential.url]" style="display:inline-block;background:${color};color:${textColorOn(color)};text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${parts.button}</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">${parts.footer}</p>
</td></tr></table></td></tr></table>
</body></html>`;
}

/** The wallet link written out in the small print, kept left to right inside right-to-left text. */
export function walletLinkLine(openLink: string, branding: EmailBranding): string {
  return `${openLink} <a href="[credential.url]" dir="ltr" style="color:${brandColorOf(branding)}">[credential.url]</a>`;
}
