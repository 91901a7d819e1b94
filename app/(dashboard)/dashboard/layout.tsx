import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/member";
import { countOpenCorrectionRequests } from "@/lib/corrections/service";
import styles from "./dashboard.module.css";
import { DashboardNav, SignOutButton } from "./nav";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · Dashboard" } };
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const member = await requireMember();
  const openCorrections = await countOpenCorrectionRequests(member.organization.id);
  return (
    <div className={styles.shell}>
      <aside className={styles.side}>
        <div>
          <div className={styles.brand}>Credentials</div>
          <div className={styles.org}>{member.organization.name}</div>
        </div>
        <DashboardNav openCorrections={openCorrections} />
        <div className={styles.user}>
          <span>{member.user.email}</span>
          <SignOutButton />
        </div>
      </aside>
      <main className={styles.main}>{children}</main>
    </div>
  );
}
