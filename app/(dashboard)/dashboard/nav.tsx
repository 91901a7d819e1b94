"use client";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import styles from "./dashboard.module.css";

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/credentials", label: "Credentials" },
  { href: "/dashboard/corrections", label: "Corrections" },
  { href: "/dashboard/templates", label: "Templates" },
  { href: "/dashboard/designs", label: "Designs" },
  { href: "/dashboard/analytics", label: "Analytics" },
  { href: "/dashboard/tokens", label: "API tokens" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/settings", label: "Settings" },
];

/** `openCorrections`: name correction requests waiting for a decision, shown next to their link. */
export function DashboardNav({ openCorrections = 0 }: { openCorrections?: number }) {
  const path = usePathname();
  const nav = useRef<HTMLElement>(null);
  // On a phone the links scroll sideways: bring the current page's link to the middle of the bar.
  useEffect(() => {
    const bar = nav.current;
    const current = bar?.querySelector<HTMLElement>("[aria-current=page]");
    if (!bar || !current || bar.scrollWidth <= bar.clientWidth) return;
    const barBox = bar.getBoundingClientRect();
    const linkBox = current.getBoundingClientRect();
    bar.scrollLeft += linkBox.left - barBox.left - (barBox.width - linkBox.width) / 2;
  }, [path]);
  return (
    <nav className={styles.nav} aria-label="Dashboard" ref={nav}>
      {LINKS.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          aria-current={path === link.href || (link.href !== "/dashboard" && path.startsWith(`${link.href}/`)) ? "page" : undefined}
        >
          {link.label}
          {link.href === "/dashboard/corrections" && openCorrections > 0 && (
            <span className={styles.navCount} data-testid="open-corrections">
              <span aria-hidden="true">{openCorrections}</span>
              <span className={styles.visuallyHidden}>({openCorrections} open)</span>
            </span>
          )}
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
