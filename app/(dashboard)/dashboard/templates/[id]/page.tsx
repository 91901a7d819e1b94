import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { listDesigns } from "@/lib/designs/service";
import { getGroup } from "@/lib/groups/service";
import { previewGroupEmail } from "@/lib/mail/test-email";
import styles from "../../dashboard.module.css";
import { TemplateForm } from "../template-form";
import { TestEmailButton } from "./test-email-button";

export const metadata = { title: "Credential template" };

export default async function TemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  let group;
  try {
    group = await getGroup(member.organization.id, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  const [designs, email] = await Promise.all([
    listDesigns(member.organization, { limit: 100 }),
    previewGroupEmail(member.organization, id),
  ]);
  return (
    <>
      <p>
        <Link href="/dashboard/templates">← Templates</Link>
      </p>
      <h1>{group.name}</h1>
      <p className={styles.lead}>
        <code>{group.id}</code> · use this id as <code>groupId</code> in the API.
      </p>
      <div className={styles.twoColumns}>
        <section className={styles.section}>
          <h2>Settings</h2>
          <TemplateForm designs={designs.data.map((d) => ({ id: d.id, name: d.name, type: d.type }))} initial={group} />
        </section>
        <section className={styles.section}>
          <h2>Email preview</h2>
          <p className={styles.muted}>With sample values. Subject:</p>
          <p data-testid="email-subject">
            <strong>{email.subject}</strong>
          </p>
          {/* The issuer's own HTML, shown isolated: no scripts, no access to this page. */}
          <iframe
            title="Email preview"
            sandbox=""
            srcDoc={email.html}
            style={{ width: "100%", height: 420, border: "1px solid var(--border)", borderRadius: 8 }}
          />
          <TestEmailButton id={group.id} email={member.user.email} />
        </section>
      </div>
    </>
  );
}
