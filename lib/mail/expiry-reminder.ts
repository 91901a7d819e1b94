// The email that reminds a recipient their credential expires soon (a group's "remind N days before
// expiry"), in the same branded frame as the built-in credential email: the organization's logo and
// brand colour, a button to the wallet and, when the group has a learning event, a link to renew.
// Written in the group's language (namespace "expiryReminder" of lib/i18n/messages). Like the
// built-in template, its sentences carry placeholders, and the worker fills in the values (escaped
// in HTML, URLs scheme-checked) when it sends it (lib/mail/composition.ts).
import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, textDirection, type Locale } from "../i18n/locales";
import { messagesFor, type Messages } from "../i18n/messages";
import { brandColorOf, escapeHtml, textColorOn, type EmailBranding, type EmailTemplate } from "./template";

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
  const dir = textDirection(locale);
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.logoUrl)}" alt="[organization.name]" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0">`
    : "";
  const renewHtml = options.renew
    ? `<p style="margin:0 0 24px;font-size:16px;line-height:1.5">${htmlText(t("renewIntro"))} <a href="[${RENEW_URL_ATTRIBUTE}]" style="color:${color}">${htmlText(t("renewLink"))}</a></p>`
    : "";
  const reply = branding.contactEmail ? `<br>${htmlText(t("replyHint"))}` : "";
  const html = `<!doctype html>
<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:560px;background:#ffffff;border-radius:12px;border-top:6px solid ${color};padding:32px">
<tr><td align="${dir === "rtl" ? "right" : "left"}">
${logo}<p style="margin:0 0 8px;font-size:14px;color:#6b7280"><bdi>[organization.name]</bdi></p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${htmlText(t("heading"))}</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">${htmlText(t("intro"))}</p>
${renewHtml}<p style="margin:0 0 24px"><a href="[credential.url]" style="display:inline-block;background:${color};color:${textColorOn(color)};text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${htmlText(t("button"))}</a></p>
<p style="margin:0;font-size:13px;color:#6b7280">${htmlText(t("openLink"))} <a href="[credential.url]" dir="ltr" style="color:${color}">[credential.url]</a>${reply}</p>
</td></tr></table></td></tr></table>
</body></html>`;
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
