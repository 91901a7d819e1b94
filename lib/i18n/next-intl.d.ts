// next-intl's types learn our locales and the English catalog's shape: useTranslations/getTranslations
// namespaces and keys are checked against lib/i18n/messages/en.json.
import type { Locale } from "./locales";
import type { Messages } from "./messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
