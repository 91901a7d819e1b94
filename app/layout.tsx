import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Credentials", template: "%s · Credentials" },
  description: "Issue digital certificates and badges.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
