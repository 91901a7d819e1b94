import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";
import { textDirection } from "@/lib/i18n/locales";
import { documentLocale } from "./document-locale";
import { HydrationMark } from "./hydration-mark";

export const metadata: Metadata = {
  title: { default: "Credentials", template: "%s · Credentials" },
  description: "Issue digital certificates and badges.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, never served from a build-time copy: its scripts must carry
  // this request's Content-Security-Policy nonce (lib/http-server/security-headers.ts).
  await connection();
  // English, except a credential's wallet page, which speaks its reader's language (and right to left in Arabic).
  const locale = await documentLocale();
  return (
    <html lang={locale} dir={textDirection(locale)}>
      <body>
        <HydrationMark />
        {children}
      </body>
    </html>
  );
}
