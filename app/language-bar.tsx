// The strip at the top of a language-following public page (a credential's wallet page, /verify, the
// recipient's wallet, a public profile): the language switch and, when the visitor asked for a language
// we do not have, one line that says so, in the language shown, naming the one asked for.
// Without JavaScript the switch is a disclosure of plain ?lang= links (the server remembers the choice);
// with it, the same links switch in place (./language-switch.tsx).
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { RAW_QUERY_HEADER } from "@/lib/api/request-target";
import { LANGUAGE_PARAM } from "@/lib/i18n/language-cookie";
import { LOCALE_NAMES, SUPPORTED_LOCALES, type Locale } from "@/lib/i18n/locales";
import { withoutIgnoredParameters } from "@/lib/public-faces/page-parameters";
import type { VisitorLanguage } from "@/lib/i18n/visitor-language";
import { LanguageSwitch } from "./language-switch";
import styles from "./language-bar.module.css";

/**
 * This page's address in `locale`: its query as sent, with `lang` set (a relative `?…` link), without
 * the parameters pages ignore (the recipient's mark, click ids): a link the page offers never hands
 * them on, and a page rendered for one visitor's link can be answered to the next.
 */
function linkIn(query: string, locale: Locale): string {
  const params = withoutIgnoredParameters(query);
  params.set(LANGUAGE_PARAM, locale);
  return `?${params.toString()}`;
}

export async function LanguageBar({ language }: { language: VisitorLanguage }) {
  const { locale, unavailable } = language;
  const t = await getTranslations({ locale, namespace: "languageSwitch" });
  const query = (await headers()).get(RAW_QUERY_HEADER) ?? "";
  const options = SUPPORTED_LOCALES.map((l) => ({ locale: l, name: LOCALE_NAMES[l], href: linkIn(query, l) }));
  return (
    // A landmark of its own (links to this page in other languages), so nothing sits outside one.
    <nav className={styles.bar} aria-label={t("label")} data-testid="language-bar">
      {unavailable ? (
        // The asked language's name comes from the runtime's list of languages, never from the request.
        <p className={styles.fallback} data-testid="language-fallback" data-asked={unavailable.tag}>
          {t("notAvailable", { language: unavailable.name })}
        </p>
      ) : null}
      <LanguageSwitch current={locale} currentName={LOCALE_NAMES[locale]} label={t("label")} options={options} />
    </nav>
  );
}
