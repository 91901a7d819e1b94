import Link from "next/link";
import styles from "./profile.module.css";

export default function IssuerNotFound() {
  return (
    <div className={styles.page}>
      <main className={styles.card}>
        <h1 className={styles.name}>Issuer not found</h1>
        <p>No organization issues credentials under this address. Check the link you followed.</p>
        <p>
          <Link href="/">Home</Link>
        </p>
      </main>
    </div>
  );
}
