import Link from "next/link";
import { ApiError } from "@/lib/api/errors";
import { requireMember } from "@/lib/auth/member";
import { listGroups } from "@/lib/groups/service";
import { SearchCredentialsBody } from "@/lib/search/schema";
import { searchCredentials } from "@/lib/search/service";
import { CREDENTIAL_STATUSES } from "@/lib/credentials/schema";
import { config } from "@/lib/config";
import { walletUrl } from "@/lib/credentials/attributes";
import styles from "../dashboard.module.css";
import { CreateCredentialForm, CredentialRowActions } from "./credential-forms";

export const metadata = { title: "Credentials" };

type Params = { status?: string; name?: string; email?: string; template?: string; cursor?: string };

/** The table's filters in the search API's own filter language; the page runs the same search. */
function filterFrom(params: Params): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (params.status) filter.status = params.status;
  if (params.template) filter.groupId = params.template;
  if (params.name) filter["recipient.name"] = { contains: params.name };
  if (params.email) filter["recipient.email"] = { contains: params.email };
  return filter;
}

export default async function CredentialsPage({ searchParams }: { searchParams: Promise<Params> }) {
  const member = await requireMember();
  const params = await searchParams;
  const groups = await listGroups(member.organization.id, { limit: 100 });
  const groupName = new Map(groups.data.map((g) => [g.id, g.name]));
  const filter = filterFrom(params);
  const request = { filter, limit: 25, ...(params.cursor ? { cursor: params.cursor } : {}) };
  const parsed = SearchCredentialsBody.safeParse(request);
  let page: Awaited<ReturnType<typeof searchCredentials>> | null = null;
  let problem: string | null = parsed.success ? null : "These filters are not valid.";
  if (parsed.success) {
    try {
      page = await searchCredentials(member.organization, parsed.data);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = "This page link has expired; showing the first page.";
      page = await searchCredentials(member.organization, { ...parsed.data, cursor: undefined });
    }
  }
  const linkWith = (cursor: string) => `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(params).filter(([k, v]) => k !== "cursor" && v)), cursor })}`;
  return (
    <>
      <h1>Credentials</h1>
      <p className={styles.lead}>Everything you have issued, newest first.</p>
      <section className={styles.section}>
        <h2>New credential</h2>
        {groups.data.length === 0 ? (
          <p>
            Create a <Link href="/dashboard/templates">credential template</Link> first.
          </p>
        ) : (
          <CreateCredentialForm templates={groups.data.map((g) => ({ id: g.id, name: g.name }))} />
        )}
      </section>
      <section className={styles.section}>
        <form className={styles.filters} method="get">
          <div className={styles.field}>
            <label htmlFor="f-status">Status</label>
            <select id="f-status" name="status" defaultValue={params.status ?? ""}>
              <option value="">any</option>
              {CREDENTIAL_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor="f-template">Template</label>
            <select id="f-template" name="template" defaultValue={params.template ?? ""}>
              <option value="">any</option>
              {groups.data.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor="f-name">Recipient name contains</label>
            <input id="f-name" name="name" defaultValue={params.name ?? ""} />
          </div>
          <div className={styles.field}>
            <label htmlFor="f-email">Email contains</label>
            <input id="f-email" name="email" defaultValue={params.email ?? ""} />
          </div>
          <button className={styles.secondary} type="submit">
            Filter
          </button>
        </form>
        {problem && <p className={`${styles.notice} ${styles.bad}`}>{problem}</p>}
        {page && page.data.length === 0 ? (
          <p className={styles.muted}>No credentials match.</p>
        ) : (
          page && (
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>Recipient</th>
                  <th>Template</th>
                  <th>Status</th>
                  <th>Issue date</th>
                  <th>Expires</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {page.data.map((c) => (
                  <tr key={c.id} data-credential-id={c.id}>
                    <td>
                      {c.attributes["recipient.name"]}
                      <br />
                      <span className={styles.muted}>{c.recipient?.email ?? "no email"}</span>
                    </td>
                    <td>{groupName.get(c.groupId) ?? c.groupId}</td>
                    <td>
                      <span className={c.status === "issued" ? styles.pill : `${styles.pill} ${styles.pillGrey}`}>{c.status}</span>
                    </td>
                    <td>{c.issueDate}</td>
                    <td>{c.expiryDate ?? "never"}</td>
                    <td>
                      <div className={styles.actions}>
                        <CredentialRowActions id={c.id} status={c.status} canSend={Boolean(c.recipient?.email)} />
                        {c.status !== "draft" && (
                          <a className={styles.secondary} href={walletUrl(c.publicId)} target="_blank" rel="noreferrer">
                            Wallet
                          </a>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        )}
        <div className={styles.pager}>
          {page?.pagination.prev && (
            <Link className={styles.secondary} href={linkWith(page.pagination.prev)}>
              ← Newer
            </Link>
          )}
          {page?.pagination.next && (
            <Link className={styles.secondary} href={linkWith(page.pagination.next)}>
              Older →
            </Link>
          )}
        </div>
        <details className={styles.api}>
          <summary>The same search through the API</summary>
          <pre>{`curl -X POST ${config().publicUrl}/v1/credentials/search \\
  -H "Authorization: Bearer $TOKEN" -H "Service-Version: 2022-10-26" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify({ filter, limit: 25 })}'`}</pre>
        </details>
      </section>
    </>
  );
}
