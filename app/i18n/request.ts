// next-intl's request configuration (next.config.mjs points its plugin here): the messages and time
// zone for a locale that a page chose (the wallet: its group's language, else the reader's
// Accept-Language; lib/i18n/negotiation.ts). Pages pass the locale explicitly, so nothing here reads
// the request; an unsupported or missing one is English.
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, isSupportedLocale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

export default getRequestConfig(async ({ locale, requestLocale }) => {
  const asked = locale ?? (await requestLocale);
  const chosen = isSupportedLocale(asked) ? asked : DEFAULT_LOCALE;
  // Credentials' dates are calendar days in UTC; so is every date the wallet formats.
  return { locale: chosen, messages: messagesFor(chosen), timeZone: "UTC" };
});
