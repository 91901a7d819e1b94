// The email that goes with a credential, built from its group's template (subject, HTML and text
// bodies with the same [attribute] placeholders as designs). A field the group leaves empty falls
// back to the built-in template, written in the group's language (lib/i18n/messages, namespace
// "email"). Values are escaped in the HTML body; the template itself is the issuer's own markup.
import { PLACEHOLDER } from "../render/document";
import { substitute, type AttributeValues } from "../render/attributes";
// next-intl's own translator core (next-intl re-exports it as createTranslator): the same ICU
// formatting as the wallet's pages, without React, for mail written in the worker and the API.
import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, textDirection, type Locale } from "../i18n/locales";
import { messagesFor, type Messages } from "../i18n/messages";

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

/**
 * What the built-in template's sentences are given for their arguments: the placeholders themselves,
 * so a translated sentence is a template like any other and the values go in afterwards, escaped in
 * the HTML body, in one pass (a name holding "[recipient.name]" is not filled in again).
 */
const ARGUMENTS = {
  organization: "[organization.name]",
  credential: "[group.name]",
  recipient: "[recipient.name]",
  id: "[credential.id]",
  date: "[credential.issueDate]",
} as const;

/** Names people chose, in text they are isolated in (a Latin name ending in ")" inside Arabic stays whole). */
const NAME_PLACEHOLDERS = /\[(?:recipient\.name|organization\.name|group\.name)\]/g;

/** A translated sentence as HTML text: escaped, its names isolated in <bdi>. */
function htmlText(sentence: string): string {
  return escapeHtml(sentence).replace(NAME_PLACEHOLDERS, "<bdi>$&</bdi>");
}

type EmailTranslator = (key: keyof Messages["email"], values?: Record<string, string>) => string;

const translators = new Map<Locale, EmailTranslator>();

/**
 * The email's sentences in a language. Their arguments are always the same placeholders, so each
 * sentence is formatted once per language and process and then reused: an email is written inside
 * the issuing transaction, which should not parse ICU messages for every recipient.
 */
function emailTranslator(language: Locale): EmailTranslator {
  let cached = translators.get(language);
  if (!cached) {
    const t = createTranslator({ locale: language, messages: messagesFor(language), namespace: "email" });
    const sentences = new Map<string, string>();
    cached = (key, values) => {
      const id = `${key}|${values === ARGUMENTS ? "placeholders" : JSON.stringify(values ?? null)}`;
      let sentence = sentences.get(id);
      if (sentence === undefined) {
        sentence = t(key, values as never);
        sentences.set(id, sentence);
      }
      return sentence;
    };
    translators.set(language, cached);
  }
  return cached;
}

/**
 * The built-in HTML body. Our own URLs and the validated colour are written in here (escaped);
 * every value from people (names) stays a placeholder, filled in escaped like any other.
 */
function defaultHtml(branding: EmailBranding, language: Locale, t: EmailTranslator): string {
  const color = brandColorOf(branding);
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="[organization.name]" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0">`
    : "";
  const image = branding.certificateImage;
  const certificate = image
    ? `<p style="margin:0 0 24px"><a href="[credential.url]"><img src="${escapeHtml(image.url)}" width="${Math.round(image.width)}" height="${Math.round(image.height)}" alt="${escapeHtml(t("certificateAlt", ARGUMENTS))}" style="display:block;width:100%;max-width:${Math.round(image.width)}px;height:auto;border:1px solid #e5e7eb;border-radius:6px"></a></p>`
    : "";
  const reply = branding.contactEmail ? `<br>${htmlText(t("replyHint", ARGUMENTS))}` : "";
  const dir = textDirection(language);
  // The wallet link is a URL whatever the language: kept left-to-right inside right-to-left text.
  return `<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border-radius:12px;border-top:6px solid ${color};padding:32px">
<tr><td align="${dir === "rtl" ? "right" : "left"}">
${logo}<p style="margin:0 0 8px;font-size:14px;color:#6b7280"><bdi>[organization.name]</bdi></p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(t("heading", ARGUMENTS))}</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">${htmlText(t("intro", ARGUMENTS))}</p>
${certificate}<p style="margin:0 0 24px"><a href="[credential.url]" style="display:inline-block;background:${color};color:${textColorOn(color)};text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${htmlText(t("button"))}</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">${htmlText(t("openLink"))} <a href="[credential.url]" dir="ltr" style="color:${color}">[credential.url]</a><br>${htmlText(t("credentialId", ARGUMENTS))} · ${htmlText(t("issuedOn", ARGUMENTS))}${reply}</p>
</td></tr></table></td></tr></table>
</body></html>`;
}

function defaultText(branding: EmailBranding, t: EmailTranslator): string {
  const lines = [
    t("textGreeting", ARGUMENTS),
    "",
    t("textIssued", ARGUMENTS),
    "",
    t("textView"),
    "[credential.url]",
    "",
    t("credentialId", ARGUMENTS),
    t("textIssuedOn", ARGUMENTS),
  ];
  if (branding.contactEmail) lines.push("", t("replyHint", ARGUMENTS));
  return lines.join("\n");
}

/** The built-in template for an email with this branding, written in `language` (English by default). */
export function defaultEmailTemplate(
  branding: EmailBranding = {},
  language: Locale = DEFAULT_LOCALE,
): { subject: string; text: string; html: string } {
  const t = emailTranslator(language);
  return { subject: t("subject", ARGUMENTS), text: defaultText(branding, t), html: defaultHtml(branding, language, t) };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * How dates placeholders produce are written: in the group's language when it fixes one (in the
 * built-in template and in the issuer's own alike, since an issuer who fixes a language writes their
 * text in it), else as US English, as before languages existed.
 */
function datesFor(language: Locale | null): { locale: string; dateStyle: "long" } {
  return { locale: language === null || language === "en" ? "en-US" : language, dateStyle: "long" };
}

/** Attributes whose value a mail client may follow or load. */
const URL_ATTRIBUTE = /(\s(?:href|src|action|formaction|background|poster)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const SAFE_URL_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/**
 * A URL attribute whose value a placeholder fills in is filled with the raw values, then kept only
 * when the result is an absolute http(s) or mailto URL, as the URL parser (and so a mail client) reads
 * it: a recipient name or custom attribute of "javascript:..." becomes "#", not a link that runs it.
 */
function fillUrlAttributes(html: string, values: AttributeValues, dates: ReturnType<typeof datesFor>): string {
  return html.replace(URL_ATTRIBUTE, (whole, lead: string, double?: string, single?: string, bare?: string) => {
    const value = double ?? single ?? bare ?? "";
    if (!PLACEHOLDER_IN_TEXT.test(value)) return whole;
    const url = substitute(value, values, dates).trim();
    const safe = SAFE_URL_SCHEMES.has(URL.parse(url)?.protocol ?? "") ? url : "#";
    return `${lead}"${escapeHtml(safe)}"`;
  });
}
const PLACEHOLDER_IN_TEXT = new RegExp(PLACEHOLDER.source);

/**
 * Fills the template (the group's fields, the built-in one where they are empty). `branding` shapes
 * the built-in HTML body only: a group's own HTML is the issuer's markup, used as it is. `language`
 * is the group's: the built-in fields are written in it (English when null), and dates in every field
 * follow it; the issuer's own subject and bodies are their words and are not translated.
 */
export function renderEmail(
  template: EmailTemplate,
  values: AttributeValues,
  branding: EmailBranding = {},
  language: Locale | null = null,
): RenderedEmail {
  const fallback = defaultEmailTemplate(branding, language ?? DEFAULT_LOCALE);
  const dates = datesFor(language);
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? v : escapeHtml(v)]));
  return {
    // A subject is one line whatever the values hold; no-break spaces stay (French puts one before ":").
    subject: substitute(template.subject ?? fallback.subject, values, dates)
      .replace(/[^\S\u00a0\u202f]+/g, " ")
      .trim(),
    html: substitute(fillUrlAttributes(template.html ?? fallback.html, values, dates), escaped, dates),
    text: substitute(template.text ?? fallback.text, values, dates),
  };
}

/**
 * An HTML body for a plain-text one (what the dashboard's email form writes): the text escaped, blank
 * lines as paragraphs, line breaks kept, and a line that is only `[credential.url]` as a button, so
 * HTML mail clients show the issuer's words rather than the built-in body. The button's label and the
 * page's direction follow the group's language (the words are the issuer's); without one, English, and
 * each paragraph takes the direction of its own first letters.
 */
export function htmlForPlainText(text: string, language: Locale | null = null): string {
  const button = emailTranslator(language ?? DEFAULT_LOCALE)("button");
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      if (p === "[credential.url]") {
        return `<p style="margin:0 0 16px"><a href="[credential.url]" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(button)}</a></p>`;
      }
      const body = escapeHtml(p)
        .split("\n")
        .map((line) =>
          line.replace(/\[credential\.url\]/g, `<a href="[credential.url]" dir="ltr" style="color:#1d4ed8">[credential.url]</a>`),
        )
        .join("<br>");
      return `<p dir="${language ? textDirection(language) : "auto"}" style="margin:0 0 16px;font-size:16px;line-height:1.5">${body}</p>`;
    });
  const lang = language ? ` lang="${language}" dir="${textDirection(language)}"` : "";
  return `<!doctype html>
<html${lang}><body style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
${paragraphs.join("\n")}
</td></tr></table></td></tr></table>
</body></html>`;
}

/**
 * What a short notice about a credential says (a name correction's outcome), already translated, with
 * people's words left as placeholders (`[recipient.name]`, `[group.name]`, ...) that are filled in,
 * escaped, when the email is rendered.
 */
export type NoticeSentences = { subject: string; heading: string; paragraphs: string[]; button: string; openLink: string };

/**
 * A notice in the built-in email's look (the organization's logo and colour, its language's direction)
 * with a button to the credential's page at `[credential.url]`. The result is a template like a
 * group's own: `renderEmail` fills it in.
 */
export function noticeEmailTemplate(sentences: NoticeSentences, branding: EmailBranding, language: Locale): RenderedEmail {
  const color = branding.brandColor && HEX_COLOR.test(branding.brandColor) ? branding.brandColor.toLowerCase() : DEFAULT_COLOR;
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="[organization.name]" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0">`
    : "";
  const dir = textDirection(language);
  const paragraphs = sentences.paragraphs
    .map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${htmlText(p)}</p>`)
    .join("\n");
  const html = `<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border-radius:12px;border-top:6px solid ${color};padding:32px">
<tr><td align="${dir === "rtl" ? "right" : "left"}">
${logo}<p style="margin:0 0 8px;font-size:14px;color:#6b7280"><bdi>[organization.name]</bdi></p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(sentences.heading)}</h1>
${paragraphs}
<p style="margin:8px 0 24px"><a href="[credential.url]" style="display:inline-block;background:${color};color:${textColorOn(color)};text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${htmlText(sentences.button)}</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">${htmlText(sentences.openLink)} <a href="[credential.url]" dir="ltr" style="color:${color}">[credential.url]</a></p>
</td></tr></table></td></tr></table>
</body></html>`;
  const text = [sentences.heading, "", ...sentences.paragraphs.flatMap((p) => [p, ""]), sentences.openLink, "[credential.url]"].join("\n");
  return { subject: sentences.subject, html, text };
}
