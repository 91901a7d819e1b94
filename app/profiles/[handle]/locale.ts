// The language of a public profile: its reader's (Accept-Language; English when none of ours matches).
// A profile gathers credentials of several groups, so no group's fixed language can speak for it.
import { headers } from "next/headers";
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { profilePageLocale } from "@/lib/public-faces/page-locale";
import { publicProfile } from "@/lib/wallet-profiles/service";

/** The profile behind the handle, read once per request (metadata and page). */
export const loadPublicProfile = cache(publicProfile);

/** The page's language; the cache of rendered pages keys on the same function (lib/public-faces/page-locale.ts). */
export const profileLocale = cache(async (): Promise<Locale> => profilePageLocale((await headers()).get("accept-language")));
