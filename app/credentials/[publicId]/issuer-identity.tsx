// Who issued this credential, as far as we can vouch: "verified owner of x.edu" when the organization
// proved it controls that domain (lib/domains), plainly "issuer identity not verified" otherwise. A
// copied organization name shows here without the check mark and in another colour, so an impostor
// does not look like the real issuer. Both link to the issuer's public profile.
import { getTranslations } from "next-intl/server";
import type { IssuerIdentity } from "@/lib/domains/service";
import type { Locale } from "@/lib/i18n/locales";
import styles from "./issuer-identity.module.css";

/** In the wallet page's language: the "wallet" messages' identity lines. */
export async function IssuerIdentityLine({ identity, locale }: { identity: IssuerIdentity | null; locale: Locale }) {
  if (!identity) return null;
  const t = await getTranslations({ locale, namespace: "wallet" });
  const profile = `/organizations/${identity.slug}`;
  if (identity.verifiedDomain) {
    return (
      <p className={`${styles.line} ${styles.verified}`} data-testid="issuer-identity" data-verified="true">
        <span className={styles.mark} aria-hidden="true">
          ✓
        </span>
        <span>
          {t.rich("identityIssuedBy", {
            organization: identity.name,
            link: (chunks) => (
              <a href={profile}>
                <bdi>{chunks}</bdi>
              </a>
            ),
          })}
        </span>
        <span className={styles.separator} aria-hidden="true">
          ·
        </span>
        <strong>{t("identityVerified", { domain: identity.verifiedDomain })}</strong>
      </p>
    );
  }
  return (
    <p className={`${styles.line} ${styles.unverified}`} data-testid="issuer-identity" data-verified="false">
      <span className={styles.mark} aria-hidden="true">
        !
      </span>
      <span>
        {t.rich("identityIssuedBy", {
          organization: identity.name,
          link: (chunks) => (
            <a href={profile}>
              <bdi>{chunks}</bdi>
            </a>
          ),
        })}
      </span>
      <span className={styles.separator} aria-hidden="true">
        ·
      </span>
      <strong>{t("identityNotVerified")}</strong>
    </p>
  );
}
