"use client";
// The language switch: a disclosure (<details>) listing every language in its own name, each a plain
// ?lang= link, so that it works without JavaScript. With JavaScript a chosen language is remembered in
// the cookie the server reads, the address keeps its ?lang= (what a copied link should say), and the
// page is rendered again in place, layouts and <html lang dir> included, without a full reload.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition, type MouseEvent } from "react";
import { languageCookie } from "@/lib/i18n/language-cookie";
import type { Locale } from "@/lib/i18n/locales";
import styles from "./language-bar.module.css";

type Option = { locale: Locale; name: string; href: string };

/** The same cookie the server sets for a ?lang= link, so the next page (and the refresh) speaks `locale`. */
function rememberLanguage(locale: Locale) {
  document.cookie = languageCookie(locale, window.location.protocol === "https:");
}

export function LanguageSwitch({
  current,
  currentName,
  label,
  options,
}: {
  current: Locale;
  currentName: string;
  label: string;
  options: Option[];
}) {
  const router = useRouter();
  const menu = useRef<HTMLDetailsElement>(null);
  const [switching, startTransition] = useTransition();

  // Escape and a click elsewhere close the menu, as a menu does; focus goes back to its button.
  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        details.open = false;
        details.querySelector("summary")?.focus();
      } else if (!details.contains(event.target as Node)) {
        details.open = false;
      }
    };
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);

  const choose = (event: MouseEvent<HTMLAnchorElement>, option: Option) => {
    // A new tab, a download or a modified click goes to the link as it is.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (menu.current) menu.current.open = false;
    rememberLanguage(option.locale);
    // No state of its own: Next then takes the new address into its router, and the refresh fetches it.
    window.history.replaceState(null, "", option.href);
    startTransition(() => router.refresh());
  };

  return (
    <details ref={menu} className={styles.switch} data-testid="language-switch" aria-busy={switching || undefined}>
      <summary className={styles.summary}>
        <svg className={styles.globe} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path
            d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
        </svg>
        <span className={styles.visuallyHidden}>{label}: </span>
        <span lang={current}>{currentName}</span>
      </summary>
      <ul className={styles.menu} aria-label={label}>
        {options.map((option) => (
          <li key={option.locale}>
            <a
              className={styles.option}
              href={option.href}
              hrefLang={option.locale}
              lang={option.locale}
              aria-current={option.locale === current ? "true" : undefined}
              onClick={(event) => choose(event, option)}
            >
              {option.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
