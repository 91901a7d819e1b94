// The issuer's public profile, /organizations/<slug>: who the organization is as far as we can vouch
// (its verified domain or plainly none), its DID, when it joined and how many credentials it issued.
// Nothing private. The segment is named `id` because the logo route owns that name at this level;
// here, as for did.json, it holds the slug.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { issuerProfile } from "@/lib/domains/service";
import { organizationSlug } from "@/lib/organizations/schema";
import styles from "./profile.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

const load = cache(async (slug: string) => (organizationSlug.safeParse(slug).success ? issuerProfile(slug) : null));

const monthYear = (date: Date) => date.toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const longDate = (date: Date) => date.toLocaleDateString("en-US", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const profile = await load((await params).id);
  if (!profile) return { title: "Issuer not found", robots: { index: false } };
  const identity = profile.verifiedDomain ? `verified owner of ${profile.verifiedDomain}` : "issuer identity not verified";
  return { title: `${profile.name}: credential issuer`, description: `${profile.name}, ${identity}.` };
}

export default async function IssuerProfilePage({ params }: Props) {
  const profile = await load((await params).id);
  if (!profile) notFound();
  const didDocument = `/organizations/${profile.slug}/did.json`;
  return (
    <div className={styles.page}>
      <main className={styles.card}>
        <div className={styles.head}>
          {profile.hasLogo ? (
            <img className={styles.logo} src={`/organizations/${profile.organizationId}/logo`} alt={`${profile.name} logo`} />
          ) : null}
          <div>
            <p className={styles.kicker}>Credential issuer</p>
            <h1 className={styles.name}>{profile.name}</h1>
          </div>
        </div>

        {profile.verifiedDomain ? (
          <div className={`${styles.status} ${styles.verified}`} data-testid="issuer-identity" data-verified="true">
            <span className={styles.mark} aria-hidden="true">
              ✓
            </span>
            <p>
              <strong>
                Verified owner of{" "}
                <a href={`https://${profile.verifiedDomain}`} rel="noopener noreferrer nofollow">
                  {profile.verifiedDomain}
                </a>
              </strong>
              This organization proved it controls {profile.verifiedDomain} by publishing a token we gave it on that website
              {profile.verifiedAt ? <> (verified {longDate(profile.verifiedAt)}, checked daily)</> : null}.
            </p>
          </div>
        ) : (
          <div className={`${styles.status} ${styles.unverified}`} data-testid="issuer-identity" data-verified="false">
            <span className={styles.mark} aria-hidden="true">
              !
            </span>
            <p>
              <strong>Issuer identity not verified</strong>
              This organization has not proved that it owns a website domain. Anyone can sign up under any name: do not take the name alone
              as proof of who issued a credential.
            </p>
          </div>
        )}

        <dl className={styles.facts}>
          <dt>Decentralized identifier</dt>
          <dd>
            <a className={styles.mono} href={didDocument}>
              {profile.did}
            </a>
          </dd>
          <dt>Joined</dt>
          <dd>
            <time dateTime={profile.joinedAt.toISOString()}>{monthYear(profile.joinedAt)}</time>
          </dd>
          <dt>Credentials issued</dt>
          <dd data-testid="credentials-issued">{profile.credentialsIssued.toLocaleString("en-US")}</dd>
        </dl>
        <p className={styles.note}>Its DID document lists the public keys that verify the credentials this organization signs.</p>
      </main>
    </div>
  );
}
