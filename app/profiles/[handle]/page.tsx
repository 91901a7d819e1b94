// A recipient's public profile, {WALLET_URL}/profiles/<handle>: their display name and the credentials
// they keep public (issued or expired, never revoked, never private), each linking to its wallet page.
// Opt-in: a profile that is not public answers 404 like an unknown handle. All user text (the display
// name, titles, issuers' names) is rendered as React text and, in the Open Graph and Twitter tags, as
// attribute values Next escapes.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { PublicFooter } from "@/app/public-footer";
import { config } from "@/lib/config";
import { intlLocale } from "@/lib/i18n/locales";
import { formatDate } from "@/lib/render/attributes";
import { previewAtWidth } from "@/lib/wallet/images";
import { profileUrl } from "@/lib/wallet-profiles/service";
import { loadPublicProfile, profileLocale } from "./locale";
import styles from "./profile.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ handle: string }> };

/** Shown in link previews when no credential on the profile has an image. */
const DEFAULT_IMAGE = { path: "/profile-card.png", width: 1200, height: 630 };

/** Cards are at most about 440 px wide: the preview route's 480 px width is sharp enough and small. */
const CARD_IMAGE_WIDTH = 480;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const profile = await loadPublicProfile((await params).handle);
  const locale = await profileLocale();
  const t = await getTranslations({ locale, namespace: "walletProfile" });
  if (!profile) return { title: t("metaNotFoundTitle"), robots: { index: false } };
  const title = profile.displayName;
  const description = t("metaDescription", { count: profile.credentials.length });
  const url = profileUrl(profile.handle);
  const firstImage = profile.credentials.find((c) => c.image)?.image;
  const image = firstImage
    ? { url: firstImage.url, width: firstImage.width, height: firstImage.height }
    : { url: `${config().publicUrl}${DEFAULT_IMAGE.path}`, width: DEFAULT_IMAGE.width, height: DEFAULT_IMAGE.height };
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: { type: "profile", url, title, description, locale: locale.replace("-", "_"), images: [{ ...image, alt: title }] },
    twitter: { card: "summary_large_image", title, description, images: [image.url] },
  };
}

export default async function PublicProfilePage({ params }: Props) {
  const profile = await loadPublicProfile((await params).handle);
  if (!profile) notFound();
  const locale = await profileLocale();
  const t = await getTranslations({ locale, namespace: "walletProfile" });
  const longDate = (value: string) => formatDate(value, intlLocale(locale), "long");
  return (
    <>
      <div className={styles.page}>
        <header className={styles.head}>
          <p className={styles.kicker}>{t("kicker")}</p>
          <h1 className={styles.name}>
            <bdi>{profile.displayName}</bdi>
          </h1>
          <p className={styles.count} data-testid="profile-count">
            {t("count", { count: profile.credentials.length })}
          </p>
        </header>
        <main>
          <h2 className={styles.visuallyHidden}>{t("credentialsHeading")}</h2>
          {profile.credentials.length === 0 ? (
            <p className={styles.empty}>{t("empty")}</p>
          ) : (
            <ul className={styles.grid} data-testid="profile-credentials">
              {profile.credentials.map((c) => (
                <li key={c.publicId} className={styles.card} data-public-id={c.publicId}>
                  <a className={styles.cardLink} href={c.url}>
                    {c.image ? (
                      <img
                        className={styles.image}
                        src={previewAtWidth(c.image.url, CARD_IMAGE_WIDTH)}
                        width={c.image.width}
                        height={c.image.height}
                        alt={t("imageAlt", { credential: c.title, organization: c.issuer.name })}
                        loading="lazy"
                      />
                    ) : (
                      <span className={styles.noImage} aria-hidden="true" />
                    )}
                    <span className={styles.title}>
                      <bdi>{c.title}</bdi>
                    </span>
                  </a>
                  <p className={styles.issuer}>
                    {t("issuedBy", { organization: c.issuer.name })}
                    {c.issuer.domain ? (
                      <span className={styles.verified}>
                        <span aria-hidden="true">✓ </span>
                        {t("verifiedDomain", { domain: c.issuer.domain })}
                      </span>
                    ) : null}
                  </p>
                  <p className={styles.date}>
                    {c.status === "expired" && c.expiryDate ? (
                      <span className={styles.expired}>{t("expiredOn", { date: longDate(c.expiryDate) })}</span>
                    ) : (
                      <time dateTime={c.issueDate}>{t("issuedOn", { date: longDate(c.issueDate) })}</time>
                    )}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <p className={styles.note}>{t("note")}</p>
        </main>
      </div>
      <PublicFooter />
    </>
  );
}
