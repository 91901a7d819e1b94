import Link from "next/link";
import { requireMember } from "@/lib/auth/member";
import { config } from "@/lib/config";
import { organizationTotals, organizationUsage } from "@/lib/organizations/service";
import styles from "./dashboard.module.css";
import { UsageMeter } from "./usage-meter";

export const metadata = { title: "Overview" };

export default async function OverviewPage() {
  const member = await requireMember();
  const [totals, usage] = await Promise.all([organizationTotals(member.organization.id), organizationUsage(member.organization)]);
  const stats = [
    { label: "Credentials", value: totals.credentials },
    { label: "Credential templates", value: totals.groups },
    { label: "Designs", value: totals.designs },
    { label: "Active API tokens", value: totals.activeTokens },
  ];
  return (
    <>
      <h1>{member.organization.name}</h1>
      <p className={styles.lead}>Welcome, {member.user.name}.</p>
      <div className={styles.grid}>
        {stats.map((s) => (
          <div className={styles.stat} key={s.label}>
            <strong>{s.value}</strong>
            <span>{s.label}</span>
          </div>
        ))}
      </div>
      <section className={styles.section}>
        <h2>This month</h2>
        <UsageMeter usage={usage} />
      </section>
      <section className={styles.section}>
        <h2>Use the API</h2>
        <p>
          <Link href="/dashboard/tokens">Create an API token</Link>, then:
        </p>
        <pre>{`curl ${config().publicUrl}/v1/groups \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Service-Version: 2022-10-26"`}</pre>
      </section>
    </>
  );
}
