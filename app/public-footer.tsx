// The foot of the public pages (a credential's wallet page, /verify): a link to /about, where the
// licence and the attributions that the bundled fonts and emoji graphics require are shown.
import Link from "next/link";
import styles from "./public-footer.module.css";

export function PublicFooter() {
  return (
    <footer className={styles.footer}>
      {/* English on every page, the wallet's translated ones too: the page it opens is English. */}
      <Link href="/about" lang="en" className={styles.link}>
        About
      </Link>
    </footer>
  );
}
