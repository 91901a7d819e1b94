import Link from "next/link";
import { ApiError } from "@/lib/core/errors";
import { safeParseWithDetails } from "@/lib/core/validation";
import { requireMember } from "@/lib/auth/member";
import { listGroups } from "@/lib/groups/service";
import { SearchCredentialsBody } from "@/lib/search/schema";
import { searchCredentials } from "@/lib/search/service";
import { CREDENTIAL_STATUSES } from "@/lib/credentials/schema";
import { config } from "@/lib/config";
import { walletUrl } from "@/lib/attribute-values/credential-values";
import { latestCredentialEmails } from "@/lib/mail/outbox";
import styles from "../dashboard.module.css";
import { CreateCredentialForm } from "./credential-forms";
import { CredentialsTable, type SortHeader, type TableRow } from "./credentials-table";
import { emailStatusOf } from "./email-status";
import {
  PAGE_SIZES,
  PARAM_LABELS,
  REVOKED,
  SORTABLE_COLUMNS,
  pageHref,
  problemsFrom,
  readTableQuery,
  searchRequest,
  shellQuote,
  sortHref,
  type TableParam,
  type TableProblem,
} from "./table-query";

export const metadata = { title: "Credentials" };

type SearchPage = Awaited<ReturnType<typeof searchCredentials>>;

export default async function CredentialsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const member = await requireMember();
  const params = await searchParams;
  const query = readTableQuery(params);
  const groups = await listGroups(member.organization.id, { limit: 100 });
  const groupName = new Map(groups.data.map((g) => [g.id, g.name]));

  // The table's search is a search API request body, parsed and run exactly as the API does.
  const { body, problems: ownProblems } = searchRequest(query);
  const { cursor, ...search } = body;
  const parsed = safeParseWithDetails(SearchCredentialsBody, search);
  const problems: TableProblem[] = [...ownProblems, ...(parsed.ok ? [] : problemsFrom(parsed.details))];
  let page: SearchPage | null = null;
  let notice: string | null = null;
  if (parsed.ok && problems.length === 0) {
    // A page link (cursor) belongs to one search: after the sort or a filter changed, or when it is
    // garbled, the search answers validation_error on `cursor`, and the table starts again at page 1.
    const withCursor = cursor ? safeParseWithDetails(SearchCredentialsBody, { ...search, cursor }) : null;
    try {
      page = await searchCredentials(member.organization, withCursor?.ok ? withCursor.data : parsed.data);
      if (withCursor && !withCursor.ok) notice = "This page link is not valid for this search; showing the first page.";
    } catch (error) {
      if (!(
        withCursor &&
        error instanceof ApiError &&
        error.code === "validation_error" &&
        error.details?.some((d) => d.path === "cursor")
      ))
        throw error;
      notice = "This page link belongs to another search or sort; showing the first page.";
      page = await searchCredentials(member.organization, parsed.data);
    }
  }
  const sort = parsed.ok && parsed.data.sort ? parsed.data.sort : null;
  const problemOf = (param: TableParam) => problems.find((p) => p.param === param)?.message;

  const sortHeaders: SortHeader[] = SORTABLE_COLUMNS.map((c) => ({
    ...c,
    href: sortHref(query, sort ?? search.sort, c.property),
    sort: sort?.property === c.property ? (sort.order === "asc" ? "ascending" : "descending") : null,
  }));
  const emails = await latestCredentialEmails(
    member.organization.id,
    (page?.data ?? []).map((c) => c.id),
  );
  const rows: TableRow[] = (page?.data ?? []).map((c) => ({
    id: c.id,
    name: c.attributes["recipient.name"] ?? c.id,
    email: c.recipient?.email ?? null,
    template: groupName.get(c.groupId) ?? c.groupId,
    status: c.status,
    revoked: c.revokedAt !== null,
    emailStatus: emailStatusOf(emails.get(c.id)),
    emailId: emails.get(c.id)?.id ?? null,
    issueDate: c.issueDate,
    expiryDate: c.expiryDate,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    // The wallet page exists for issued and expired credentials only (drafts and scheduled ones answer 404).
    walletUrl: c.status === "issued" || c.status === "expired" ? walletUrl(c.publicId) : null,
  }));
  const field = (param: TableParam, input: React.ReactNode) => (
    <div className={styles.field}>
      <label htmlFor={`f-${param}`}>{PARAM_LABELS[param]}</label>
      {input}
      {problemOf(param) && (
        <span className={styles.fieldError} id={`f-${param}-error`}>
          {problemOf(param)}
        </span>
      )}
    </div>
  );
  const invalid = (param: TableParam) => ({
    "aria-invalid": Boolean(problemOf(param)),
    "aria-describedby": problemOf(param) ? `f-${param}-error` : undefined,
  });

  return (
    <>
      <h1>Credentials</h1>
      <p className={styles.lead}>
        Everything you have issued; a column heading with an arrow sorts by it. Many at once?{" "}
        <Link href="/dashboard/credentials/import">Import them from a CSV file</Link>.
      </p>
      {params.deleted === "1" && (
        <p className={`${styles.notice} ${styles.ok}`} role="status">
          The credential was deleted.
        </p>
      )}
      <section className={styles.section} id="new-credential" aria-labelledby="new-credential-heading">
        <h2 id="new-credential-heading">New credential</h2>
        {groups.data.length === 0 ? (
          <p>
            Create a <Link href="/dashboard/templates">credential template</Link> first.
          </p>
        ) : (
          <CreateCredentialForm templates={groups.data.map((g) => ({ id: g.id, name: g.name }))} />
        )}
      </section>
      <section className={styles.section}>
        <form className={styles.filters} method="get" aria-label="Filters">
          {field(
            "status",
            <select id="f-status" name="status" defaultValue={query.status ?? ""} {...invalid("status")}>
              <option value="">any</option>
              {[...CREDENTIAL_STATUSES, REVOKED].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>,
          )}
          {field(
            "template",
            <select id="f-template" name="template" defaultValue={query.template ?? ""}>
              <option value="">any</option>
              {groups.data.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>,
          )}
          {field("name", <input id="f-name" name="name" defaultValue={query.name ?? ""} {...invalid("name")} />)}
          {field("email", <input id="f-email" name="email" defaultValue={query.email ?? ""} {...invalid("email")} />)}
          {field(
            "hasEmail",
            <select id="f-hasEmail" name="hasEmail" defaultValue={query.hasEmail ?? ""} {...invalid("hasEmail")}>
              <option value="">any</option>
              <option value="yes">has an email</option>
              <option value="no">no email</option>
            </select>,
          )}
          {field(
            "issuedFrom",
            <input id="f-issuedFrom" name="issuedFrom" type="date" defaultValue={query.issuedFrom ?? ""} {...invalid("issuedFrom")} />,
          )}
          {field(
            "issuedTo",
            <input id="f-issuedTo" name="issuedTo" type="date" defaultValue={query.issuedTo ?? ""} {...invalid("issuedTo")} />,
          )}
          {field(
            "limit",
            <select id="f-limit" name="limit" defaultValue={query.limit ?? String(PAGE_SIZES[0])} {...invalid("limit")}>
              {[...PAGE_SIZES.map(String), ...(query.limit && !PAGE_SIZES.map(String).includes(query.limit) ? [query.limit] : [])].map(
                (n) => (
                  <option key={n}>{n}</option>
                ),
              )}
            </select>,
          )}
          {/* Filtering keeps the sort; it starts again from the first page. */}
          {query.sort && <input type="hidden" name="sort" value={query.sort} />}
          {query.order && <input type="hidden" name="order" value={query.order} />}
          <button className={styles.secondary} type="submit">
            Filter
          </button>
        </form>
        {problems.length > 0 && (
          <div className={`${styles.notice} ${styles.bad}`} role="alert" data-testid="search-problems">
            These filters are not valid, so nothing was searched:
            <ul className={styles.failures}>
              {problems.map((p, i) => (
                <li key={i}>{p.param ? `${PARAM_LABELS[p.param]} ${JSON.stringify(query[p.param] ?? "")}: ${p.message}` : p.message}</li>
              ))}
            </ul>
          </div>
        )}
        {notice && <p className={`${styles.notice} ${styles.bad}`}>{notice}</p>}
        {/* Kept mounted when a bulk action empties the filtered list (issuing every draft of a "draft" filter), so its answer stays. */}
        {page && <CredentialsTable key={JSON.stringify(query)} rows={rows} sortHeaders={sortHeaders} />}
        <div className={styles.pager}>
          {page?.pagination.prev && (
            <Link className={styles.secondary} href={pageHref(query, page.pagination.prev)}>
              ← Previous
            </Link>
          )}
          {page?.pagination.next && (
            <Link className={styles.secondary} href={pageHref(query, page.pagination.next)}>
              Next →
            </Link>
          )}
        </div>
        <details className={styles.api}>
          <summary>The same search through the API</summary>
          <pre tabIndex={0} aria-label="The same search through the API">{`curl -X POST ${config().publicUrl}/v1/credentials/search \\
  -H "Authorization: Bearer $TOKEN" -H "Service-Version: 2022-10-26" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(search))}`}</pre>
        </details>
      </section>
    </>
  );
}
