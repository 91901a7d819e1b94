import Link from "next/link";
import styles from "./wallet.module.css";

export default function CredentialNotFound() {
  return (
    <main className={styles.notFound}>
      <h1>Credential not found</h1>
      <p>This credential does not exist, has not been issued yet, or was withdrawn by its issuer.</p>
      <p>
        If someone shared this link with you, ask them for a current one. <Link href="/">Home</Link>
      </p>
    </main>
  );
}
