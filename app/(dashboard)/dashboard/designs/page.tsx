import { requireMember } from "@/lib/auth/member";
import { listDesigns } from "@/lib/designs/service";
import Link from "next/link";
import styles from "../dashboard.module.css";
import { NewDesignForm } from "./new-design-form";

export const metadata = { title: "Designs" };

export default async function DesignsPage() {
  const member = await requireMember();
  const designs = await listDesigns(member.organization, { limit: 100 });
  return (
    <>
      <h1>Designs</h1>
      <p className={styles.lead}>
        How your certificates and badges look. Each preview is rendered by the same renderer as every credential, with sample values.
      </p>
      <section className={styles.section}>
        <h2>New design</h2>
        <NewDesignForm designs={designs.data.map((d) => ({ id: d.id, name: d.name, type: d.type }))} />
      </section>
      {designs.data.length === 0 ? (
        <p className={styles.muted}>No designs yet.</p>
      ) : (
        <div className={styles.cards}>
          {designs.data.map((d) => (
            <article className={styles.card} key={d.id}>
              <Link href={`/dashboard/designs/${d.id}`} aria-label={`Edit ${d.name}`}>
                <img src={d.previewUrl} alt={`${d.name} with sample values`} loading="lazy" />
              </Link>
              <div>
                <Link href={`/dashboard/designs/${d.id}`}>
                  <strong>{d.name}</strong>
                </Link>
                <br />
                <span className={styles.muted}>
                  {d.type} · updated {d.updatedAt.slice(0, 10)}
                </span>
              </div>
            </article>
          ))}
        </div>
      )}
    </>
  );
}
