// The language of a public page for the visitor reading it (lib/i18n/visitor-language.ts has the rule):
// read from this request's ?lang=, remembered-choice cookie and Accept-Language once per request, and
// announced to the server so that the response says it (Content-Language, Vary, the cookie that
// remembers a ?lang= choice: lib/http-server/page-language.ts). Every language-following page calls
// this, through its own locale module, and uses the one value it returns for its <html lang>, its text
// and anything keyed on its language.
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { RAW_QUERY_HEADER } from "@/lib/api/request-target";
import { announcePageLanguage } from "@/lib/http-server/page-language";
import { LANGUAGE_COOKIE, LANGUAGE_PARAM } from "@/lib/i18n/language-cookie";
import { visitorLanguage as chooseLanguage, type VisitorLanguage } from "@/lib/i18n/visitor-language";

/** `fixed`: the language the credential's group fixes (null for pages no group speaks for). */
export const visitorLanguage = cache(async (fixed: string | null): Promise<VisitorLanguage> => {
  const requestHeaders = await headers();
  const param = new URLSearchParams(requestHeaders.get(RAW_QUERY_HEADER) ?? "").get(LANGUAGE_PARAM);
  const cookie = (await cookies()).get(LANGUAGE_COOKIE)?.value ?? null;
  const chosen = chooseLanguage({ param, cookie, fixed, acceptLanguage: requestHeaders.get("accept-language") });
  announcePageLanguage({ locale: chosen.locale, followsVisitor: true, remember: chosen.remember });
  return chosen;
});
