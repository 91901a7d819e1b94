import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/member";
import { listDesigns } from "@/lib/designs/service";
import { getGroup } from "@/lib/groups/service";
import { groupEmailDraft } from "@/lib/mail/test-email";
import styles from "../../dashboard.module.css";
import { emailEditorSetup } from "../email-setup";
import { TemplateForm } from "../template-form";

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
    groupEmailDraft(member.organization, id).then((draft) => emailEditorSetup(member, draft)),
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
      <section className={styles.section}>
        <h2>Settings and email</h2>
        <TemplateForm designs={designs.data.map((d) => ({ id: d.id, name: d.name, type: d.type }))} initial={group} email={email} />
      </section>
    </>
  );
}
