// The language of /verify: its reader's (?lang=, the remembered choice, Accept-Language;
// app/visitor-language.ts). The credential it checks may be in any language; the page is the reader's.
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { visitorLanguage } from "@/app/visitor-language";

export const verifyLanguage = () => visitorLanguage(null);

export const verifyLocale = cache(async (): Promise<Locale> => (await verifyLanguage()).locale);
