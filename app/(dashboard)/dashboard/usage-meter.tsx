import type { OrganizationUsage } from "@/lib/organizations/service";
import styles from "./dashboard.module.css";

export function UsageMeter({ usage }: { usage: OrganizationUsage }) {
  if (usage.quota === null) {
    return (
      <p>
        <span className={styles.pill}>{usage.plan}</span> {usage.issued} credentials issued in {usage.month}; this plan has no monthly
        limit.
      </p>
    );
  }
  const share = usage.quota === 0 ? 1 : Math.min(1, usage.issued / usage.quota);
  return (
    <div>
      <p>
        <span className={`${styles.pill} ${styles.pillGrey}`}>{usage.plan}</span> {usage.issued} of {usage.quota} credentials issued in{" "}
        {usage.month}.
      </p>
      <div
        className={styles.meter}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={usage.quota}
        aria-valuenow={usage.issued}
        aria-label="Credentials issued this month"
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className={styles.muted}>{Math.max(0, usage.quota - usage.issued)} left this month. The count starts again on the 1st (UTC).</p>
    </div>
  );
}
