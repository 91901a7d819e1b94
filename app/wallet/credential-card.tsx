// One credential of the recipient's wallet list: its image, title (a link to its wallet page), issuer
// with the verified-domain badge when there is one, a status pill, and the card's actions. All user
// text (titles, issuer names, reasons) is rendered as React text.
import { getTranslations } from "next-intl/server";
import { intlLocale, type Locale } from "@/lib/i18n/locales";
import { formatDate } from "@/lib/render/attributes";
import type { WalletListItem } from "@/lib/wallet/recipient-credentials";
import { WalletAppOffer } from "@/app/credentials/[publicId]/wallet-app-offer";
import type { ApiCorrectionRequest } from "@/lib/corrections/schema";
import { NameCorrectionAction } from "./name-correction-action";
import { VisibilityToggle } from "./visibility-toggle";
import styles from "./wallet.module.css";

/**
 * The card's actions, one component each. Other features add theirs here, each its own component
 * taking the card's credential: a name correction request, adding to a wallet app, profile settings.
 */
function CardActions({
  credential,
  correction,
  locale,
}: {
  credential: WalletListItem;
  correction: ApiCorrectionRequest | null;
  locale: Locale;
}) {
  return (
    <div className={styles.cardActions} data-testid="card-actions">
      <VisibilityToggle publicId={credential.publicId} title={credential.title} visibility={credential.visibility} />
      {credential.revokedAt === null ? <WalletAppOffer publicId={credential.publicId} signedIn inCard /> : null}
      <NameCorrectionAction
        publicId={credential.publicId}
        revoked={credential.revokedAt !== null}
        correction={correction}
        locale={locale}
      />
    </div>
  );
}

export async function CredentialCard({
  credential,
  locale,
  correction = null,
}: {
  credential: WalletListItem;
  locale: Locale;
  /** The recipient's last name correction request of this credential, if any. */
  correction?: ApiCorrectionRequest | null;
}) {
  const t = await getTranslations({ locale, namespace: "recipientWallet" });
  const date = (value: string) => formatDate(value, intlLocale(locale), "medium");
  const revoked = credential.revokedAt !== null;
  const pill = revoked
    ? { className: styles.pillRevoked, text: t("statusRevoked") }
    : credential.status === "expired"
      ? { className: styles.pillExpired, text: t("statusExpired") }
      : { className: styles.pillIssued, text: t("statusIssued") };
  const headingId = `credential-${credential.publicId}`;
  return (
    <li className={styles.cardItem}>
      <article
        className={styles.credential}
        aria-labelledby={headingId}
        data-testid="wallet-credential"
        data-public-id={credential.publicId}
      >
        <div className={styles.imageBox}>
          {credential.imageUrl ? (
            <img
              src={`${credential.imageUrl}?w=480`}
              alt={t("imageAlt", { title: credential.title, issuer: credential.issuer.name })}
              loading="lazy"
            />
          ) : null}
        </div>
        <div className={styles.cardBody}>
          <p className={`${styles.pill} ${pill.className}`} data-testid="status-pill">
            {pill.text}
          </p>
          <h2 className={styles.cardTitle} id={headingId}>
            <a href={`/credentials/${credential.publicId}`}>{credential.title}</a>
          </h2>
          <p className={styles.issuer}>
            <bdi>{credential.issuer.name}</bdi>
            {credential.issuer.domain ? (
              <span className={styles.verified} data-testid="verified-domain">
                <span aria-hidden="true">✓ </span>
                {t("verifiedDomain", { domain: credential.issuer.domain })}
              </span>
            ) : null}
          </p>
          <p className={styles.dates}>
            {t("issuedOn", { date: date(credential.issueDate) })}
            {!revoked && credential.status === "expired" && credential.expiryDate
              ? ` · ${t("expiredOn", { date: date(credential.expiryDate) })}`
              : ""}
          </p>
          {revoked && credential.revocationReason ? (
            <p className={styles.reason} data-testid="revocation-reason">
              {t("revokedBecause", { reason: credential.revocationReason })}
            </p>
          ) : null}
          <CardActions credential={credential} correction={correction} locale={locale} />
        </div>
      </article>
    </li>
  );
}
