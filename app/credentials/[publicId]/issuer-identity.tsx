// Who issued this credential, as far as we can vouch: "verified owner of x.edu" when the organization
// proved it controls that domain (lib/domains), plainly "issuer identity not verified" otherwise. A
// copied organization name shows here without the check mark and in another colour, so an impostor
// does not look like the real issuer. Both link to the issuer's public profile.
import type { IssuerIdentity } from "@/lib/domains/service";
import styles from "./issuer-identity.module.css";

export function IssuerIdentityLine({ identity }: { identity: IssuerIdentity | null }) {
  if (!identity) return null;
  const profile = `/organizations/${identity.slug}`;
  if (identity.verifiedDomain) {
    return (
      <p className={`${styles.line} ${styles.verified}`} data-testid="issuer-identity" data-verified="true">
        <span className={styles.mark} aria-hidden="true">✓</span>
        <span>
          Issued by <a href={profile}>{identity.name}</a>
        </span>
        <span className={styles.separator} aria-hidden="true">·</span>
        <strong>verified owner of {identity.verifiedDomain}</strong>
      </p>
    );
  }
  return (
    <p className={`${styles.line} ${styles.unverified}`} data-testid="issuer-identity" data-verified="false">
      <span className={styles.mark} aria-hidden="true">!</span>
      <span>
        Issued by <a href={profile}>{identity.name}</a>
      </span>
      <span className={styles.separator} aria-hidden="true">·</span>
      <strong>issuer identity not verified</strong>
    </p>
  );
}
