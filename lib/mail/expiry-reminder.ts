// The email that reminds a recipient their credential expires soon (a group's "remind N days before
// expiry"), in the same branded frame as the built-in credential email: the organization's logo and
// brand colour, a button to the wallet and, when the group has a learning event, a link to renew.
// Written in the group's language (namespace "expiryReminder" of lib/i18n/messages). Like the
// built-in template, its sentences carry placeholders, and the worker fills in the values (escaped
// in HTML, URLs scheme-checked) when it sends it (lib/mail/composition.ts).
import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, type Locale } from "../i18n/locales";
import { messagesFor, type Messages } from "../i18n/messages";
import { brandColorOf, brandedEmailHtml, escapeHtml, messageParagraph, walletLinkLine, type EmailBranding } from "./layout";
import type { EmailTemplate } from "./template";

/** The attribute the renew link is written from; set only in a reminder's values. */
export const RENEW_URL_ATTRIBUTE = "group.learningEventUrl";

const ARGUMENTS = {
  organization: "[organization.name]",
  credential: "[group.name]",
  recipient: "[recipient.name]",
  date: "[credential.expiryDate]",
} as const;

const NAME_PLACEHOLDERS = /\[(?:recipient\.name|organization\.name|group\.name)\]/g;

function htmlText(sentence: string): string {
  return escapeHtml(sentence).replace(NAME_PLACEHOLDERS, "<bdi>$&</bdi>");
}

type ReminderKey = keyof Messages["expiryReminder"];

function translator(language: Locale): (key: ReminderKey) => string {
  const t = createTranslator({ locale: language, messages: messagesFor(language), namespace: "expiryReminder" });
  return (key) => t(key, ARGUMENTS as never);
}

/** The reminder's subject and bodies, with placeholders; `renew` adds the learning event link. */
export function expiryReminderTemplate(
  branding: EmailBranding,
  language: Locale | null,
  options: { renew: boolean },
): Required<{ [K in keyof EmailTemplate]: string }> {
  const locale = language ?? DEFAULT_LOCALE;
  const t = translator(locale);
  const color = brandColorOf(branding);
  const renewHtml = options.renew
    ? `\n${messageParagraph(`${htmlText(t("renewIntro"))} <a href="[${RENEW_URL_ATTRIBUTE}]" style="color:${color}">${htmlText(t("renewLink"))}</a>`, { last: true })}`
    : "";
  const reply = branding.contactEmail ? `<br>${htmlText(t("replyHint"))}` : "";
  const html = brandedEmailHtml({
    language: locale,
    branding,
    content: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(t("heading"))}</h1>
${messageParagraph(htmlText(t("intro")), { last: true })}${renewHtml}`,
    certificateAlt: null,
    button: htmlText(t("button")),
    footer: `${walletLinkLine(htmlText(t("openLink")), branding)}${reply}`,
  });
  const text = [
    t("textGreeting"),
    "",
    t("intro"),
    "",
    ...(options.renew ? [t("renewIntro"), `[${RENEW_URL_ATTRIBUTE}]`, ""] : []),
    t("textView"),
    "[credential.url]",
    ...(branding.contactEmail ? ["", t("replyHint")] : []),
  ].join("\n");
  return { subject: t("subject"), html, text };
}
