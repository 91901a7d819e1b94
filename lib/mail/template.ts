// The email that goes with a credential, built from its group's template (subject, HTML and text
// bodies with the same [attribute] placeholders as designs). A field the group leaves empty falls
// back to the built-in template. Values are escaped in the HTML body; the template itself is the
// issuer's own markup.
import { PLACEHOLDER } from "../render/document";
import { substitute, type AttributeValues } from "../render/attributes";

export type EmailTemplate = { subject: string | null; html: string | null; text: string | null };
export type RenderedEmail = { subject: string; html: string; text: string };

export const DEFAULT_EMAIL_TEMPLATE = {
  subject: "[organization.name] issued you a credential: [group.name]",
  text: [
    "Hello [recipient.name],",
    "",
    "[organization.name] has issued you the credential “[group.name]”.",
    "",
    "View, download and share it here:",
    "[credential.url]",
    "",
    "Credential ID: [credential.id]",
    "Issued: [credential.issueDate]",
  ].join("\n"),
  html: `<!doctype html>
<html><body style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="margin:0 0 8px;font-size:14px;color:#6b7280">[organization.name]</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">You have earned “[group.name]”</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">Hello [recipient.name], [organization.name] has issued you a credential. View it, download it as PNG or PDF, and share it.</p>
<p style="margin:0 0 24px"><a href="[credential.url]" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">View your credential</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">Or open this link: <a href="[credential.url]" style="color:#1d4ed8">[credential.url]</a><br>Credential ID: [credential.id] · Issued [credential.issueDate]</p>
</td></tr></table></td></tr></table>
</body></html>`,
};

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

export function renderEmail(template: EmailTemplate, values: AttributeValues): RenderedEmail {
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? v : escapeHtml(v)]));
  return {
    // A subject is one line whatever the values hold.
    subject: substitute(template.subject ?? DEFAULT_EMAIL_TEMPLATE.subject, values, DATES).replace(/\s+/g, " ").trim(),
    html: substitute(fillUrlAttributes(template.html ?? DEFAULT_EMAIL_TEMPLATE.html, values), escaped, DATES),
    text: substitute(template.text ?? DEFAULT_EMAIL_TEMPLATE.text, values, DATES),
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
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
${paragraphs.join("\n")}
</td></tr></table></td></tr></table>
</body></html>`;
}
