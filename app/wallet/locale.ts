// The language of the recipient's wallet pages (/wallet and its sign-in link page): the closest to what
// the reader's browser asks for (Accept-Language; English when none of ours matches). The wallet gathers
// credentials of many groups, so no group's language decides it.
import { headers } from "next/headers";
import { cache } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { localeFromAcceptLanguage } from "@/lib/i18n/negotiation";

export const recipientWalletLocale = cache(async (): Promise<Locale> => localeFromAcceptLanguage((await headers()).get("accept-language")));
