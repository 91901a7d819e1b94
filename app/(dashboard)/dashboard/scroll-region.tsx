// A box that scrolls sideways when its content (a wide table, a code sample) is wider than the
// screen. Keyboard users must be able to scroll it too (WCAG 2.1.1), so it is focusable and named.
import type { ReactNode } from "react";
import styles from "./dashboard.module.css";

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.tableScroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
