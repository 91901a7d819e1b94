import { userHasPassword } from "@/lib/accounts/service";
import { activeSessionCount } from "@/lib/accounts/sessions";
import { requireMember } from "@/lib/auth/member";
import { domainClaimFor, type DomainClaimView } from "@/lib/domains/service";
import { serviceSender } from "@/lib/mail/sender";
import { organizationBranding } from "@/lib/organizations/branding";
import { organizationLogoVersion, organizationUsage } from "@/lib/organizations/service";
import { didConfigurationPublishUrl } from "@/lib/verifiable/did-configuration";
import styles from "../dashboard.module.css";
import { UsageMeter } from "../usage-meter";
import { ChangePasswordForm, SignOutEverywhereForm } from "./account-forms";
import { BrandingForm } from "./branding-form";
import { DomainSection, type DomainClaimProps } from "./domain-forms";
import { LogoForm, RenameForm } from "./settings-forms";

export const metadata = { title: "Settings" };

const when = (date: Date | null) => (date ? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC` : null);

function domainClaimProps(claim: DomainClaimView | null, slug: string): DomainClaimProps | null {
  if (!claim) return null;
  const { token: _token, ...shown } = claim;
  return {
    ...shown,
    verifiedAt: when(claim.verifiedAt),
    lastCheckedAt: when(claim.lastCheckedAt),
    profileUrl: `/organizations/${slug}`,
    didConfigurationUrl: `/organizations/${encodeURIComponent(slug)}/did-configuration.json`,
    didConfigurationPublishUrl: didConfigurationPublishUrl(claim.domain),
  };
}

export default async function SettingsPage() {
  const member = await requireMember();
  const [usage, logoVersion, hasPassword, sessions, domainClaim, branding] = await Promise.all([
    organizationUsage(member.organization),
    organizationLogoVersion(member.organization.id),
    userHasPassword(member.user.id),
    activeSessionCount(member.user.id),
    domainClaimFor(member.organization.id),
    organizationBranding(member.organization.id),
  ]);
  const logoUrl = logoVersion ? `/organizations/${member.organization.id}/logo?v=${logoVersion}` : null;
  return (
    <>
      <h1>Settings</h1>
      <p className={styles.lead}>Your organization as recipients see it, your plan, and your own account.</p>
      <section className={styles.section}>
        <h2>Organization</h2>
        <RenameForm name={member.organization.name} />
      </section>
      <section className={styles.section}>
        <h2>Logo</h2>
        <LogoForm logoUrl={logoUrl} />
      </section>
      <section className={styles.section} aria-labelledby="branding-heading">
        <h2 id="branding-heading">Email and LinkedIn</h2>
        <BrandingForm
          organizationName={member.organization.name}
          {...branding}
          service={serviceSender()}
          website={domainClaim ? { domain: domainClaim.domain, verified: domainClaim.verified } : null}
        />
      </section>
      <section className={styles.section} aria-labelledby="domain-heading">
        <h2 id="domain-heading">Website domain</h2>
        <DomainSection claim={domainClaimProps(domainClaim, member.organization.slug)} />
      </section>
      <section className={styles.section}>
        <h2>Plan and usage</h2>
        <UsageMeter usage={usage} />
      </section>
      <section className={styles.section} aria-labelledby="account-heading">
        <h2 id="account-heading">Your account</h2>
        <p className={`${styles.muted} ${styles.email}`}>Signed in as {member.user.email}.</p>
        <h3>Change password</h3>
        {hasPassword ? (
          <ChangePasswordForm />
        ) : (
          <p>
            Your account has no password: you sign in with GitHub or Google. To add one, sign out and use “Forgot password?” on the sign-in
            page.
          </p>
        )}
        <h3>Sign out everywhere</h3>
        <p>
          {sessions === 1 ? "You are signed in on 1 browser (this one)." : `You are signed in on ${sessions} browsers, this one included.`}{" "}
          Signing out everywhere ends all of them, for example if you used a shared computer or think someone else has access.
        </p>
        <SignOutEverywhereForm />
      </section>
    </>
  );
}
