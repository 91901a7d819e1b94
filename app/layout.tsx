import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";
import { HydrationMark } from "./hydration-mark";

export const metadata: Metadata = {
  title: { default: "Credentials", template: "%s · Credentials" },
  description: "Issue digital certificates and badges.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, never served from a build-time copy: its scripts must carry
  // this request's Content-Security-Policy nonce (lib/http-server/security-headers.ts).
  await connection();
  return (
    <html lang="en">
      <body>
        <HydrationMark />
        {children}
      </body>
    </html>
  );
}
