// The public wallet page of one credential: what its recipient opens from the email and shares, and
// what a guest opens to check it. Server-rendered; user text is only ever rendered as React text.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { formatDate } from "@/lib/render/attributes";
import { findWalletCredential } from "@/lib/wallet/service";
import { IssuerIdentityLine } from "./issuer-identity";
import { downloadFileName, linkedInAddToProfileUrl, shareTargets } from "./share-links";
import { WalletActions } from "./wallet-actions";
import styles from "./wallet.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ publicId: string }> };

// generateMetadata and the page share one lookup per request.
const load = cache(findWalletCredential);

const longDate = (value: string) => formatDate(value, "en-US", "long");

/** The designs whose previews can be drawn: the others are shown as text and offer no download. */
const drawable = <D extends { unsupportedText: string | null }>(designs: D[]) => designs.filter((d) => d.unsupportedText === null);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const credential = await load((await params).publicId);
  if (!credential) return { title: "Credential not found", robots: { index: false } };
  const revoked = credential.revocation !== null;
  const title = `${revoked ? "Revoked: " : ""}${credential.groupName}: ${credential.recipientName}`;
  const description = revoked
    ? `${credential.organization.name} revoked this credential (“${credential.groupName}”, ${credential.recipientName}).`
    : `${credential.recipientName} earned “${credential.groupName}” from ${credential.organization.name}.`;
  const image = drawable(credential.designs)[0]?.previews.find((p) => p.format === "png")?.url;
  return {
    title,
    description,
    alternates: { canonical: credential.url },
    openGraph: { type: "website", url: credential.url, title, description, siteName: credential.organization.name, ...(image ? { images: [{ url: image, alt: title }] } : {}) },
    twitter: { card: image ? "summary_large_image" : "summary", title, description, ...(image ? { images: [image] } : {}) },
  };
}

export default async function WalletPage({ params }: Props) {
  const credential = await load((await params).publicId);
  if (!credential) notFound();

  const expired = credential.status === "expired";
  const revocation = credential.revocation;
  // The UTC day, like every other date of a credential.
  const revokedOn = revocation ? revocation.revokedAt.slice(0, 10) : null;
  const shareText = `I earned “${credential.groupName}” from ${credential.organization.name}`;
  const firstPng = drawable(credential.designs)[0]?.previews.find((p) => p.format === "png")?.url ?? null;
  const designs = drawable(credential.designs).map((d) => {
    // The PNG download carries the signed credential baked in (badge.png); the PDF is the preview.
    const png = `${credential.url}/badge.png?design=${encodeURIComponent(d.id)}`;
    const pdf = d.previews.find((p) => p.format === "pdf")!.url;
    const many = credential.designs.length > 1;
    const pngFileName = downloadFileName(credential.groupName, credential.recipientName, d.name, many, "png");
    const pdfFileName = downloadFileName(credential.groupName, credential.recipientName, d.name, many, "pdf");
    // ?download= asks the preview route for Content-Disposition: attachment, which also works when
    // the wallet and the previews are on different hosts (the download attribute then does not).
    return {
      name: d.name,
      png: `${png}&download=${encodeURIComponent(pngFileName)}`,
      pdf: `${pdf}?download=${encodeURIComponent(pdfFileName)}`,
      pngFileName,
      pdfFileName,
    };
  });

  return (
    <div className={styles.page}>
      {revocation ? (
        // First on the page, before the issuer's name and the images: whoever opens the link learns at
        // once that the credential no longer stands. The reason is the issuer's text, rendered as text.
        <section className={styles.revoked} role="alert" aria-labelledby="revoked-heading" data-testid="revoked-notice">
          <h1 id="revoked-heading" className={styles.revokedTitle}>This credential was revoked</h1>
          <p>
            {credential.organization.name} revoked it on <time dateTime={revocation.revokedAt}>{longDate(revokedOn!)}</time>. It is no longer valid.
          </p>
          <p data-testid="revocation-reason">{revocation.reason !== null ? <>Reason: {revocation.reason}</> : "No reason was given."}</p>
        </section>
      ) : null}
      {/* One banner landmark for the issuer's name and its identity line, so nothing sits outside a landmark. */}
      <header>
        <div className={styles.header}>
          {credential.organization.hasLogo ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img className={styles.logo} src={`/organizations/${credential.organization.id}/logo`} alt={`${credential.organization.name} logo`} />
          ) : null}
          <span className={styles.orgName}>{credential.organization.name}</span>
        </div>
        <IssuerIdentityLine organizationId={credential.organization.id} />
      </header>

      <main className={styles.main}>
        <section className={styles.previews} aria-label="Credential images">
          {credential.designs.map((d, i) => {
            if (d.unsupportedText !== null) {
              // The renderer cannot draw this text (a right-to-left script, emoji, ...): the browser can,
              // so the credential is shown as text rather than as a broken image.
              return (
                <figure key={d.id} className={styles.textCertificate} data-testid="text-certificate" aria-label={`${d.name}: ${credential.groupName}`}>
                  <p className={styles.textCertificateIssuer}>{credential.organization.name}</p>
                  <p className={styles.textCertificateTitle} dir="auto">{credential.groupName}</p>
                  <p className={styles.textCertificateLabel}>Awarded to</p>
                  <p className={styles.textCertificateName} dir="auto">{credential.recipientName}</p>
                  <p className={styles.textCertificateLabel}>
                    <time dateTime={credential.issueDate}>{longDate(credential.issueDate)}</time>
                  </p>
                </figure>
              );
            }
            const png = d.previews.find((p) => p.format === "png")!.url;
            return (
              // eslint-disable-next-line @next/next/no-img-element
              <img
                key={d.id}
                className={styles.preview}
                src={png}
                alt={`${d.name}: ${credential.groupName}, awarded to ${credential.recipientName} by ${credential.organization.name}`}
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : "auto"}
              />
            );
          })}
        </section>

        <aside className={styles.panel}>
          <p className={expired || revocation ? `${styles.badge} ${styles.badgeExpired}` : `${styles.badge} ${styles.badgeValid}`} data-testid="validity">
            {revocation ? `Revoked on ${longDate(revokedOn!)}` : expired ? `Expired on ${longDate(credential.expiryDate!)}` : "Valid credential"}
          </p>
          {/* With a revocation notice the page's h1 is that notice. */}
          {revocation ? <h2 className={styles.title}>{credential.groupName}</h2> : <h1 className={styles.title}>{credential.groupName}</h1>}
          <p className={styles.recipient}>
            Awarded to <strong>{credential.recipientName}</strong>
          </p>
          <dl className={styles.facts}>
            <dt>Issued by</dt>
            <dd>{credential.organization.name}</dd>
            <dt>Issue date</dt>
            <dd>
              <time dateTime={credential.issueDate}>{longDate(credential.issueDate)}</time>
            </dd>
            <dt>Expiry date</dt>
            <dd>{credential.expiryDate ? <time dateTime={credential.expiryDate}>{longDate(credential.expiryDate)}</time> : "Does not expire"}</dd>
            <dt>Credential ID</dt>
            <dd className={styles.mono}>{credential.id}</dd>
          </dl>
          {/* The issuer's own words (or the defaults), as the signed credential states them; text only. */}
          <section className={styles.about} aria-label="About this credential" data-testid="achievement">
            {/* One level under the credential's title, which is the h1 unless a revocation notice is. */}
            <AboutHeading revoked={Boolean(revocation)}>What this is</AboutHeading>
            <p dir="auto">{credential.description}</p>
            <AboutHeading revoked={Boolean(revocation)}>How it was earned</AboutHeading>
            <p dir="auto">{credential.criteria}</p>
          </section>
          {credential.learningEventUrl ? (
            <p>
              <a href={credential.learningEventUrl} target="_blank" rel="noopener noreferrer nofollow">
                About this course or event
              </a>
            </p>
          ) : null}
          <WalletActions
            publicId={credential.publicId}
            revoked={revocation !== null}
            url={credential.url}
            designs={designs}
            shareTargets={shareTargets({ url: credential.url, text: shareText, imageUrl: firstPng })}
            addToLinkedInUrl={linkedInAddToProfileUrl({
              name: credential.groupName,
              organizationName: credential.organization.name,
              organizationId: credential.organization.linkedinOrganizationId,
              issueDate: credential.issueDate,
              expiryDate: credential.expiryDate,
              url: credential.url,
              credentialId: credential.id,
            })}
          />
        </aside>
      </main>
    </div>
  );
}

function AboutHeading({ revoked, children }: { revoked: boolean; children: string }) {
  return revoked ? <h3>{children}</h3> : <h2>{children}</h2>;
}
