"use client";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { usePathname } from "next/navigation";
import styles from "./dashboard.module.css";

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/credentials", label: "Credentials" },
  { href: "/dashboard/templates", label: "Templates" },
  { href: "/dashboard/designs", label: "Designs" },
  { href: "/dashboard/analytics", label: "Analytics" },
  { href: "/dashboard/tokens", label: "API tokens" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/settings", label: "Settings" },
];

export function DashboardNav() {
  const path = usePathname();
  return (
    <nav className={styles.nav} aria-label="Dashboard">
      {LINKS.map((link) => (
        <Link key={link.href} href={link.href} aria-current={path === link.href || (link.href !== "/dashboard" && path.startsWith(`${link.href}/`)) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
      <a href="/docs">API reference</a>
    </nav>
  );
}

export function SignOutButton() {
  return (
    <button className={styles.linkButton} type="button" onClick={() => void signOut({ callbackUrl: "/signin" })}>
      Sign out
    </button>
  );
}
