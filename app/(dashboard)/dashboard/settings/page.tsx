import { requireMember } from "@/lib/auth/member";
import { organizationLogoVersion, organizationUsage } from "@/lib/organizations/service";
import styles from "../dashboard.module.css";
import { UsageMeter } from "../usage-meter";
import { LogoForm, RenameForm } from "./settings-forms";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const member = await requireMember();
  const [usage, logoVersion] = await Promise.all([organizationUsage(member.organization), organizationLogoVersion(member.organization.id)]);
  const logoUrl = logoVersion ? `/organizations/${member.organization.id}/logo?v=${logoVersion}` : null;
  return (
    <>
      <h1>Settings</h1>
      <p className={styles.lead}>Your organization as recipients see it, and your plan.</p>
      <section className={styles.section}>
        <h2>Organization</h2>
        <RenameForm name={member.organization.name} />
      </section>
      <section className={styles.section}>
        <h2>Logo</h2>
        <LogoForm logoUrl={logoUrl} />
      </section>
      <section className={styles.section}>
        <h2>Plan and usage</h2>
        <UsageMeter usage={usage} />
      </section>
    </>
  );
}
