import { requireMember } from "@/lib/auth/member";
import { listApiTokens } from "@/lib/organizations/service";
import styles from "../dashboard.module.css";
import { CreateTokenForm, RevokeTokenButton } from "./token-forms";

export const metadata = { title: "API tokens" };

function when(date: Date | null): string {
  return date ? date.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never";
}

export default async function TokensPage() {
  const member = await requireMember();
  const tokens = await listApiTokens(member.organization.id);
  return (
    <>
      <h1>API tokens</h1>
      <p className={styles.lead}>
        Tokens let your systems call the REST API as {member.organization.name}. A token is shown once, when it is created; we keep only a
        hash of it.
      </p>
      <section className={styles.section}>
        <h2>Create a token</h2>
        <CreateTokenForm />
      </section>
      <section className={styles.section}>
        <h2>Tokens</h2>
        {tokens.length === 0 ? (
          <p className={styles.muted}>No tokens yet.</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Token starts with</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id} data-token-prefix={t.prefix}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{when(t.createdAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td>
                    {t.revokedAt ? (
                      <span className={`${styles.pill} ${styles.pillGrey}`}>revoked {when(t.revokedAt)}</span>
                    ) : (
                      <span className={styles.pill}>active</span>
                    )}
                  </td>
                  <td>{!t.revokedAt && <RevokeTokenButton prefix={t.prefix} name={t.name} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
