import Link from "next/link";
import { requireMember } from "@/lib/auth/member";
import { listDesigns } from "@/lib/designs/service";
import { listGroups } from "@/lib/groups/service";
import styles from "../dashboard.module.css";
import { emailEditorSetup } from "./email-setup";
import { TemplateForm } from "./template-form";

export const metadata = { title: "Credential templates" };

export default async function TemplatesPage() {
  const member = await requireMember();
  const [groups, designs, email] = await Promise.all([
    listGroups(member.organization.id, { limit: 100 }),
    listDesigns(member.organization, { limit: 100 }),
    emailEditorSetup(member, {
      groupName: "Your template",
      language: null,
      template: { subject: null, html: null, text: null },
      designId: null,
    }),
  ]);
  const designName = new Map(designs.data.map((d) => [d.id, d.name]));
  return (
    <>
      <h1>Credential templates</h1>
      <p className={styles.lead}>
        A template (a &ldquo;group&rdquo; in the API) says which designs a credential renders with, when it expires and what email goes out
        with it.
      </p>
      <section className={styles.section}>
        <h2>Templates</h2>
        {groups.data.length === 0 ? (
          <p className={styles.muted}>No templates yet. Create your first one below.</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Designs</th>
                <th>Expiry</th>
                <th>Email subject</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => (
                <tr key={g.id}>
                  <td>
                    <Link href={`/dashboard/templates/${g.id}`}>{g.name}</Link>
                    <br />
                    <code className={styles.muted}>{g.id}</code>
                  </td>
                  <td>{g.designIds.map((id) => designName.get(id) ?? id).join(", ")}</td>
                  <td>{g.expiryPeriod ? `${g.expiryPeriod.amount} ${g.expiryPeriod.unit}(s) after issue` : "never"}</td>
                  <td>{g.emailTemplate?.subject ?? <span className={styles.muted}>default</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className={styles.section}>
        <h2>New template</h2>
        <TemplateForm designs={designs.data.map((d) => ({ id: d.id, name: d.name, type: d.type }))} email={email} />
      </section>
    </>
  );
}
