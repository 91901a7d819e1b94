// The language of the recipient's wallet pages (/wallet and its sign-in link page): the reader's (?lang=,
// the remembered choice, Accept-Language; app/visitor-language.ts). The wallet gathers credentials of
// many groups, so no group's language decides it.
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { visitorLanguage } from "@/app/visitor-language";

export const recipientWalletLanguage = () => visitorLanguage(null);

export const recipientWalletLocale = cache(async (): Promise<Locale> => (await recipientWalletLanguage()).locale);
