// The email that goes with a credential, built from its group's template (subject, HTML and text
// bodies with the same [attribute] placeholders as designs). A field the group leaves empty falls
// back to the built-in template, written in the group's language (lib/i18n/messages, namespace
// "email"). Values are escaped in the HTML body; the template itself is the issuer's own markup.
import { PLACEHOLDER } from "../render/document";
import { substitute, type AttributeValues } from "../render/attributes";
// next-intl's own translator core (next-intl re-exports it as createTranslator): the same ICU
// formatting as the wallet's pages, without React, for mail written in the worker and the API.
import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, type Locale } from "../i18n/locales";
import { messagesFor, type Messages } from "../i18n/messages";
import { markupToPlainText, parseEmailMarkup, type MarkupInline } from "../render/email-markup";
import { brandColorOf, brandedEmailHtml, escapeHtml, messageParagraph, walletLinkLine, type EmailBranding } from "./layout";

export type EmailTemplate = { subject: string | null; html: string | null; text: string | null };
export type RenderedEmail = { subject: string; html: string; text: string };

export { brandColorOf, escapeHtml, textColorOn, type EmailBranding } from "./layout";
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
 * The built-in HTML body: a heading and an introduction in the branded frame. Every value from
 * people (names) stays a placeholder, filled in escaped like any other.
 */
function defaultHtml(branding: EmailBranding, language: Locale, t: EmailTranslator): string {
  const content = `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(t("heading", ARGUMENTS))}</h1>
${messageParagraph(htmlText(t("intro", ARGUMENTS)), { last: true })}`;
  return brandedEmailHtml({ language, branding, content, ...smallPrint(branding, t) });
}

/** What the frame says around any credential email's message: the image's alt text, the button, the small print. */
function smallPrint(branding: EmailBranding, t: EmailTranslator): { certificateAlt: string; button: string; footer: string } {
  const reply = branding.contactEmail ? `<br>${htmlText(t("replyHint", ARGUMENTS))}` : "";
  return {
    certificateAlt: escapeHtml(t("certificateAlt", ARGUMENTS)),
    button: htmlText(t("button")),
    footer: `${walletLinkLine(htmlText(t("openLink")), branding)}<br>${htmlText(t("credentialId", ARGUMENTS))} · ${htmlText(t("issuedOn", ARGUMENTS))}${reply}`,
  };
}

/** The plain-text counterpart of the small print: the wallet link written out, the id and date, who to reply to. */
function textSmallPrint(branding: EmailBranding, t: EmailTranslator): string[] {
  const lines = [t("textView"), "[credential.url]", "", t("credentialId", ARGUMENTS), t("textIssuedOn", ARGUMENTS)];
  if (branding.contactEmail) lines.push("", t("replyHint", ARGUMENTS));
  return lines;
}

/**
 * The issuer's own text (lib/render/email-markup) in the branded frame, as an HTML template and a
 * plain-text one. Without a fixed language the frame is English and each paragraph takes the
 * direction of its own first letters, since the words are the issuer's.
 */
export function customEmailBodies(source: string, branding: EmailBranding, language: Locale | null): { html: string; text: string } {
  const frameLanguage = language ?? DEFAULT_LOCALE;
  const t = emailTranslator(frameLanguage);
  const { paragraphs } = parseEmailMarkup(source);
  const color = brandColorOf(branding);
  const inline = (pieces: MarkupInline[]): string =>
    pieces
      .map((p) => {
        switch (p.kind) {
          case "text":
            return htmlText(p.text);
          case "break":
            return "<br>";
          case "bold":
            return `<strong>${inline(p.children)}</strong>`;
          case "link":
            return `<a href="${escapeHtml(p.url)}" style="color:${color}">${htmlText(p.label)}</a>`;
        }
      })
      .join("");
  const content = paragraphs
    .map((p, i) => messageParagraph(inline(p), { dir: language ? undefined : "auto", last: i === paragraphs.length - 1 }))
    .join("\n");
  const html = brandedEmailHtml({ language: frameLanguage, branding, content, ...smallPrint(branding, t) });
  const text = [markupToPlainText(paragraphs), "", ...textSmallPrint(branding, t)].join("\n");
  return { html, text };
}

function defaultText(branding: EmailBranding, t: EmailTranslator): string {
  return [t("textGreeting", ARGUMENTS), "", t("textIssued", ARGUMENTS), "", ...textSmallPrint(branding, t)].join("\n");
}

/** The built-in template for an email with this branding, written in `language` (English by default). */
export function defaultEmailTemplate(
  branding: EmailBranding = {},
  language: Locale = DEFAULT_LOCALE,
): { subject: string; text: string; html: string } {
  const t = emailTranslator(language);
  return { subject: t("subject", ARGUMENTS), text: defaultText(branding, t), html: defaultHtml(branding, language, t) };
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
 * Fills the template (the group's fields, the built-in one where they are empty). The issuer's own
 * text without their own HTML is written in the branded frame (customEmailBodies): `branding` shapes
 * it and the built-in body alike. A group's own HTML (the API's `html`) is the issuer's markup, used as
 * it is, with its `text` as the plain-text part as written. `language` is the group's: the built-in
 * fields and the frame are written in it (English when null), and dates in every field follow it; the
 * issuer's own subject and text are their words and are not translated.
 */
export function renderEmail(
  template: EmailTemplate,
  values: AttributeValues,
  branding: EmailBranding = {},
  language: Locale | null = null,
): RenderedEmail {
  const custom = template.html === null && template.text !== null ? customEmailBodies(template.text, branding, language) : null;
  // Written only when a field falls back to it.
  let builtIn: ReturnType<typeof defaultEmailTemplate> | undefined;
  const fallback = () => (builtIn ??= defaultEmailTemplate(branding, language ?? DEFAULT_LOCALE));
  const subject = template.subject ?? fallback().subject;
  const dates = datesFor(language);
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? v : escapeHtml(v)]));
  return {
    // A subject is one line whatever the values hold; no-break spaces stay (French puts one before ":").
    subject: substitute(subject, values, dates)
      .replace(/[^\S\u00a0\u202f]+/g, " ")
      .trim(),
    html: substitute(fillUrlAttributes(custom?.html ?? template.html ?? fallback().html, values, dates), escaped, dates),
    text: substitute(custom?.text ?? template.text ?? fallback().text, values, dates),
  };
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
  const content = [
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(sentences.heading)}</h1>`,
    ...sentences.paragraphs.map((p) => messageParagraph(htmlText(p))),
  ].join("\n");
  const html = brandedEmailHtml({
    language,
    branding,
    content,
    certificateAlt: null,
    button: htmlText(sentences.button),
    footer: walletLinkLine(htmlText(sentences.openLink), branding),
  });
  const text = [sentences.heading, "", ...sentences.paragraphs.flatMap((p) => [p, ""]), sentences.openLink, "[credential.url]"].join("\n");
  return { subject: sentences.subject, html, text };
}
