import { requireMember } from "@/lib/auth/member";
import { listDesigns } from "@/lib/designs/service";
import styles from "../dashboard.module.css";

export const metadata = { title: "Designs" };

export default async function DesignsPage() {
  const member = await requireMember();
  const designs = await listDesigns(member.organization, { limit: 100 });
  return (
    <>
      <h1>Designs</h1>
      <p className={styles.lead}>How your certificates and badges look. Each preview is rendered by the same renderer as every credential, with sample values.</p>
      {designs.data.length === 0 ? (
        <p className={styles.muted}>No designs yet. Create them with the API (POST /v1/designs).</p>
      ) : (
        <div className={styles.cards}>
          {designs.data.map((d) => (
            <article className={styles.card} key={d.id}>
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={d.previewUrl} alt={`${d.name} with sample values`} loading="lazy" />
              <div>
                <strong>{d.name}</strong>
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
