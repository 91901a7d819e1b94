// The language of a public profile: its reader's (?lang=, the remembered choice, Accept-Language;
// app/visitor-language.ts). A profile gathers credentials of several groups, so no group's fixed
// language can speak for it.
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { visitorLanguage } from "@/app/visitor-language";
import { publicProfile } from "@/lib/wallet-profiles/service";

/** The profile behind the handle, read once per request (metadata and page). */
export const loadPublicProfile = cache(publicProfile);

export const profileLanguage = () => visitorLanguage(null);

export const profileLocale = cache(async (): Promise<Locale> => (await profileLanguage()).locale);
