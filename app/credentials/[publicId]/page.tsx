// The public wallet page of one credential: what its recipient opens from the email and shares, and
// what a guest opens to check it. Server-rendered; user text is only ever rendered as React text.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { issuerIdentity } from "@/lib/domains/service";
import { formatDate } from "@/lib/render/attributes";
import { previewAtWidth, previewSrcSet, WALLET_PREVIEW_SIZES } from "@/lib/wallet/images";
import { intlLocale, type Locale } from "@/lib/i18n/locales";
import { LanguageBar } from "@/app/language-bar";
import { credentialLocale, isSignedInRecipient, loadWalletCredential, walletLanguage, walletLocale } from "./locale";
import { IssuerIdentityLine } from "./issuer-identity";
import { downloadFileName, embedSnippet, linkedInAddToProfileUrl, shareTargets } from "./share-links";
import { MainActions, RecipientTools } from "./wallet-actions";
import { WalletAppOffer } from "./wallet-app-offer";
import { NameCorrection } from "./name-correction";
import { walletOffers, type CredentialState } from "./offers";
import styles from "./wallet.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ publicId: string }> };

// generateMetadata, the page and the root layout (its <html lang>) share one lookup per request.
const load = loadWalletCredential;

type WalletT = Awaited<ReturnType<typeof getTranslations<"wallet">>>;

/**
 * Every user-visible text of the page (the client parts keep theirs in wallet-actions.tsx), in the
 * reader's language: the "wallet" messages of lib/i18n/messages. Values (names, dates) go in as ICU
 * arguments and come out as text.
 */
function pageText(t: WalletT) {
  return {
    revokedHeading: t("revokedHeading"),
    revokedOn: (org: string, date: string, dateTime: string) =>
      t.rich("revokedOn", { organization: org, date, time: (chunks) => <time dateTime={dateTime}>{chunks}</time> }),
    reason: (reason: string) => t("reason", { reason }),
    noReason: t("noReason"),
    logoAlt: (org: string) => t("logoAlt", { organization: org }),
    valid: t("valid"),
    expiredOn: (date: string) => t("expiredOn", { date }),
    revokedOnPill: (date: string) => t("revokedOnPill", { date }),
    revokedOverlay: t("revokedOverlay"),
    awardedTo: (recipient: string) =>
      t.rich("awardedTo", {
        recipient,
        strong: (chunks) => (
          <strong>
            <bdi>{chunks}</bdi>
          </strong>
        ),
      }),
    awardedToLabel: t("awardedToLabel"),
    images: t("images"),
    imageAlt: (design: string, group: string, recipient: string, org: string) =>
      t("imageAlt", { design, credential: group, recipient, organization: org }),
    designOf: (design: string, group: string) => t("designOf", { design, credential: group }),
    details: t("details"),
    issuedBy: t("issuedBy"),
    issueDate: t("issueDate"),
    expiryDate: t("expiryDate"),
    doesNotExpire: t("doesNotExpire"),
    credentialId: t("credentialId"),
    meaning: t("meaning"),
    whatThisIs: t("whatThisIs"),
    howEarned: t("howEarned"),
    learningEvent: t("learningEvent"),
    issuer: t("aboutIssuer"),
    verifiedOwner: (domain: string) => t("verifiedOwner", { domain }),
    notVerified: t("notVerified"),
    issuerProfile: t("issuerProfile"),
    shareText: (group: string, org: string) => t("shareText", { credential: group, organization: org }),
    qrLabel: (group: string, recipient: string) => t("qrLabel", { credential: group, recipient }),
    embedAlt: (group: string, recipient: string, org: string) => t("embedAlt", { credential: group, recipient, organization: org }),
    qrFileLabel: t("qrHeading"),
  };
}

/** The width of the image in the embed snippet: one of the preview route's smaller widths. */
const EMBED_WIDTH = 800;

/** A credential's calendar day (YYYY-MM-DD, UTC) as the reader's language writes it; numerals as that language does by default. */
const longDateIn = (locale: Locale) => (value: string) => formatDate(value, intlLocale(locale), "long");

/** The designs whose previews can be drawn: the others are shown as text and offer no download. */
const drawable = <D extends { unsupportedText: string | null }>(designs: D[]) => designs.filter((d) => d.unsupportedText === null);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { publicId } = await params;
  const credential = await load(publicId);
  const locale = await walletLocale(publicId);
  const t = await getTranslations({ locale, namespace: "wallet" });
  if (!credential) return { title: t("metaNotFoundTitle"), robots: { index: false } };
  // A private credential is shown to its recipient only: nothing about it for link previews or search engines.
  if (credential.visibility === "private") return { title: credential.groupName, robots: { index: false } };
  const revoked = credential.revocation !== null;
  const names = { credential: credential.groupName, recipient: credential.recipientName, organization: credential.organization.name };
  const titleIn = (tr: WalletT) => (revoked ? tr("metaTitleRevoked", names) : tr("metaTitle", names));
  const descriptionIn = (tr: WalletT) => (revoked ? tr("metaDescriptionRevoked", names) : tr("metaDescription", names));
  // The document's title speaks the page's language; the link previews the credential's, whoever shares it.
  const previewLocale = credentialLocale(credential);
  const preview = await getTranslations({ locale: previewLocale, namespace: "wallet" });
  const previewTitle = titleIn(preview);
  const previewDescription = descriptionIn(preview);
  const image = drawable(credential.designs)[0]?.previews.find((p) => p.format === "png")?.url;
  return {
    title: titleIn(t),
    description: descriptionIn(t),
    alternates: { canonical: credential.url },
    openGraph: {
      type: "website",
      url: credential.url,
      title: previewTitle,
      description: previewDescription,
      siteName: credential.organization.name,
      // og:locale is written with an underscore (pt_BR); a language alone is fine.
      locale: previewLocale.replace("-", "_"),
      ...(image ? { images: [{ url: image, alt: previewTitle }] } : {}),
    },
    twitter: {
      card: image ? "summary_large_image" : "summary",
      title: previewTitle,
      description: previewDescription,
      ...(image ? { images: [image] } : {}),
    },
  };
}

export default async function WalletPage({ params }: Props) {
  const { publicId } = await params;
  const credential = await load(publicId);
  if (!credential) notFound();
  const signedInRecipient = await isSignedInRecipient(credential.id);
  const identity = await issuerIdentity(credential.organization.id);
  const locale = await walletLocale(publicId);
  const TEXT = pageText(await getTranslations({ locale, namespace: "wallet" }));
  const longDate = longDateIn(locale);

  const revocation = credential.revocation;
  const state: CredentialState = revocation ? "revoked" : credential.status === "expired" ? "expired" : "valid";
  // The UTC day, like every other date of a credential.
  const revokedOn = revocation ? longDate(revocation.revokedAt.slice(0, 10)) : null;
  const expiredOn = credential.expiryDate ? longDate(credential.expiryDate) : null;
  const org = credential.organization.name;
  // A valid credential's pill names who signed: green with the domain the issuer proved it owns, amber
  // and worded otherwise when it proved none, so a copied name never reads like the real issuer.
  // Revoked and expired say so first, whoever the issuer is.
  const trust = await getTranslations({ locale, namespace: "trustVerifier" });
  const verifiedDomain = identity?.verifiedDomain ?? null;
  // The issuer's name isolated (<bdi>), so a right-to-left name cannot reorder the sentence around it.
  const named = { org: (chunks: React.ReactNode) => <bdi>{chunks}</bdi> };
  const validPill = verifiedDomain
    ? trust.rich("validVerified", { organization: org, domain: verifiedDomain, ...named })
    : trust.rich("validUnverified", { organization: org, ...named });
  const pill = state === "revoked" ? TEXT.revokedOnPill(revokedOn!) : state === "expired" ? TEXT.expiredOn(expiredOn!) : validPill;
  // Over every image, so a screenshot or a glance cannot pass an expired or revoked credential as valid.
  const overlay = state === "revoked" ? TEXT.revokedOverlay : state === "expired" ? TEXT.expiredOn(expiredOn!) : null;
  const drawn = drawable(credential.designs);
  const firstDesign = drawn[0] ?? null;
  const firstPng = firstDesign?.previews.find((p) => p.format === "png")?.url ?? null;
  const many = credential.designs.length > 1;
  const valid = state === "valid";
  const offers = walletOffers(state, credential.visibility === "private" ? "private" : "public", {
    share: () => ({ title: credential.groupName, text: TEXT.shareText(credential.groupName, org), url: credential.url }),
    addToLinkedInUrl: () =>
      linkedInAddToProfileUrl({
        name: credential.groupName,
        organizationName: org,
        organizationId: credential.organization.linkedinOrganizationId,
        issueDate: credential.issueDate,
        expiryDate: credential.expiryDate,
        url: credential.url,
        credentialId: credential.id,
      }),
    downloads: () =>
      drawn.map((d) => {
        // Both downloads carry the signed credential: baked into the PNG (badge.png), embedded in the
        // PDF as credential.json (credential.pdf).
        const png = `${credential.url}/badge.png?design=${encodeURIComponent(d.id)}`;
        const pdf = `${credential.url}/credential.pdf?design=${encodeURIComponent(d.id)}`;
        const pngFileName = downloadFileName(credential.groupName, credential.recipientName, d.name, many, "png");
        const pdfFileName = downloadFileName(credential.groupName, credential.recipientName, d.name, many, "pdf");
        // ?download= asks the preview route for Content-Disposition: attachment, which also works when
        // the wallet and the previews are on different hosts (the download attribute then does not).
        return {
          name: d.name,
          png: `${png}&download=${encodeURIComponent(pngFileName)}`,
          pdf: `${pdf}&download=${encodeURIComponent(pdfFileName)}`,
          pngFileName,
          pdfFileName,
        };
      }),
    sharing: () => ({
      url: credential.url,
      targets: shareTargets({ url: credential.url, text: TEXT.shareText(credential.groupName, org), imageUrl: firstPng }),
    }),
    qr: () => {
      const qrName = downloadFileName(credential.groupName, credential.recipientName, TEXT.qrFileLabel, true, "png");
      return {
        svg: `/credentials/${credential.publicId}/qr.svg`,
        png: `/credentials/${credential.publicId}/qr.png?download=${encodeURIComponent(qrName)}`,
        label: TEXT.qrLabel(credential.groupName, credential.recipientName),
      };
    },
    embed: () =>
      firstDesign && firstPng
        ? embedSnippet({
            url: credential.url,
            imageUrl: previewAtWidth(firstPng, EMBED_WIDTH),
            imageWidth: EMBED_WIDTH,
            imageHeight: Math.round((EMBED_WIDTH * firstDesign.pngSize.height) / firstDesign.pngSize.width),
            alt: TEXT.embedAlt(credential.groupName, credential.recipientName, org),
          })
        : null,
  });

  return (
    <div className={styles.page}>
      {revocation ? (
        // First on the page, before the issuer's name and the images: whoever opens the link learns at
        // once that the credential no longer stands. The reason is the issuer's text, rendered as text.
        <section className={styles.revoked} role="alert" aria-labelledby="revoked-heading" data-testid="revoked-notice">
          <h1 id="revoked-heading" className={styles.revokedTitle}>
            {TEXT.revokedHeading}
          </h1>
          <p>{TEXT.revokedOn(org, revokedOn!, revocation.revokedAt)}</p>
          <p data-testid="revocation-reason">{revocation.reason !== null ? TEXT.reason(revocation.reason) : TEXT.noReason}</p>
        </section>
      ) : null}
      {/* The language switch: after a revocation notice, which comes first of all. */}
      <LanguageBar language={await walletLanguage(publicId)} />
      {/* One banner landmark for the issuer's name and its identity line, so nothing sits outside a landmark. */}
      <header>
        <div className={styles.header}>
          {credential.organization.hasLogo ? (
            // A fixed box, so the name beside it does not move when the logo arrives.
            <img
              className={styles.logo}
              src={`/organizations/${credential.organization.id}/logo`}
              alt={TEXT.logoAlt(org)}
              width={120}
              height={40}
            />
          ) : null}
          <span className={styles.orgName}>
            <bdi>{org}</bdi>
          </span>
        </div>
        <IssuerIdentityLine identity={identity} locale={locale} />
      </header>

      <main className={styles.main}>
        {/* The first screen on a phone: status, title, recipient and the main action, before the images. */}
        <section className={`${styles.card} ${styles.summary}`} aria-labelledby="credential-title">
          <p
            className={`${styles.badge} ${valid ? (verifiedDomain ? styles.badgeValid : styles.badgeUnverified) : styles.badgeExpired}`}
            data-testid="validity"
            data-state={state}
            data-issuer-verified={verifiedDomain ? "true" : "false"}
          >
            {pill}
          </p>
          {/* With a revocation notice the page's h1 is that notice. */}
          {revocation ? (
            <h2 id="credential-title" className={styles.title}>
              <bdi>{credential.groupName}</bdi>
            </h2>
          ) : (
            <h1 id="credential-title" className={styles.title}>
              <bdi>{credential.groupName}</bdi>
            </h1>
          )}
          <p className={styles.recipient}>{TEXT.awardedTo(credential.recipientName)}</p>
          <MainActions
            publicId={credential.publicId}
            signedInRecipient={signedInRecipient}
            share={offers.share}
            addToLinkedInUrl={offers.addToLinkedInUrl}
            makePublicToShare={offers.makePublicToShare}
          />
        </section>

        <section className={styles.previews} aria-label={TEXT.images}>
          {credential.designs.map((d, i) => {
            const stamp = overlay ? (
              <p className={`${styles.overlay} ${state === "revoked" ? styles.overlayRevoked : ""}`} data-testid="image-overlay">
                {overlay}
              </p>
            ) : null;
            if (d.unsupportedText !== null) {
              // The renderer cannot draw this text (a right-to-left script, emoji, ...): the browser can,
              // so the credential is shown as text rather than as a broken image.
              return (
                <figure
                  key={d.id}
                  className={`${styles.imageFrame} ${styles.textCertificate}`}
                  data-testid="text-certificate"
                  aria-label={TEXT.designOf(d.name, credential.groupName)}
                >
                  {stamp}
                  <p className={styles.textCertificateIssuer}>
                    <bdi>{org}</bdi>
                  </p>
                  <p className={styles.textCertificateTitle} dir="auto">
                    {credential.groupName}
                  </p>
                  <p className={styles.textCertificateLabel}>{TEXT.awardedToLabel}</p>
                  <p className={styles.textCertificateName} dir="auto">
                    {credential.recipientName}
                  </p>
                  <p className={styles.textCertificateLabel}>
                    <time dateTime={credential.issueDate}>{longDate(credential.issueDate)}</time>
                  </p>
                </figure>
              );
            }
            const png = d.previews.find((p) => p.format === "png")!.url;
            return (
              <figure key={d.id} className={styles.imageFrame}>
                <img
                  className={styles.preview}
                  src={previewAtWidth(png, 800)}
                  srcSet={previewSrcSet(png)}
                  sizes={WALLET_PREVIEW_SIZES}
                  width={d.pngSize.width}
                  height={d.pngSize.height}
                  alt={TEXT.imageAlt(d.name, credential.groupName, credential.recipientName, org)}
                  loading={i === 0 ? "eager" : "lazy"}
                  fetchPriority={i === 0 ? "high" : "auto"}
                  decoding={i === 0 ? "sync" : "async"}
                />
                {stamp}
              </figure>
            );
          })}
        </section>

        <section className={`${styles.card} ${styles.details}`} aria-label={TEXT.details}>
          <dl className={styles.facts}>
            <dt>{TEXT.issuedBy}</dt>
            <dd>
              <bdi>{org}</bdi>
            </dd>
            <dt>{TEXT.issueDate}</dt>
            <dd>
              <time dateTime={credential.issueDate}>{longDate(credential.issueDate)}</time>
            </dd>
            <dt>{TEXT.expiryDate}</dt>
            <dd>{credential.expiryDate ? <time dateTime={credential.expiryDate}>{expiredOn}</time> : TEXT.doesNotExpire}</dd>
            <dt>{TEXT.credentialId}</dt>
            <dd className={styles.mono}>{credential.id}</dd>
          </dl>
          {/* The issuer's own words (or the defaults), as the signed credential states them; text only. */}
          <section id="meaning" className={styles.about} aria-label={TEXT.meaning} data-testid="achievement">
            {/* One level under the credential's title, which is the h1 unless a revocation notice is. */}
            <AboutHeading revoked={state === "revoked"}>{TEXT.whatThisIs}</AboutHeading>
            <p dir="auto">{credential.description}</p>
            <AboutHeading revoked={state === "revoked"}>{TEXT.howEarned}</AboutHeading>
            <p dir="auto">{credential.criteria}</p>
          </section>
          {credential.learningEventUrl ? (
            <p>
              <a href={credential.learningEventUrl} target="_blank" rel="noopener noreferrer nofollow">
                {TEXT.learningEvent}
              </a>
            </p>
          ) : null}
          {identity ? (
            <section className={styles.about} aria-label={TEXT.issuer} data-testid="issuer-card">
              <AboutHeading revoked={state === "revoked"}>{TEXT.issuer}</AboutHeading>
              <p dir="auto">{identity.name}</p>
              <p>{identity.verifiedDomain ? TEXT.verifiedOwner(identity.verifiedDomain) : TEXT.notVerified}</p>
              <p>
                <a href={`/organizations/${identity.slug}`}>{TEXT.issuerProfile}</a>
              </p>
            </section>
          ) : null}
          <NameCorrection
            publicId={credential.publicId}
            locale={locale}
            organization={org}
            currentName={credential.recipientName}
            revoked={revocation !== null}
          />
        </section>

        {offers.tools ? (
          <div className={styles.toolsArea}>
            <RecipientTools publicId={credential.publicId} signedInRecipient={signedInRecipient} tools={offers.tools} />
            {state === "revoked" ? null : <WalletAppOffer publicId={credential.publicId} signedIn={signedInRecipient} />}
          </div>
        ) : null}
      </main>
    </div>
  );
}

function AboutHeading({ revoked, children }: { revoked: boolean; children: string }) {
  return revoked ? <h3>{children}</h3> : <h2>{children}</h2>;
}
