import { requireMember } from "@/lib/auth/member";
import { issuingFunnel } from "@/lib/interactions/funnel";
import { parsePeriod, PERIOD_LABELS, PERIOD_PRESETS, periodQuery, type PeriodError } from "@/lib/interactions/period";
import styles from "../dashboard.module.css";
import own from "./analytics.module.css";
import { FunnelStages, SeriesChart, TemplateTable } from "./charts";

export const metadata = { title: "Analytics" };

type Search = { period?: string; from?: string; to?: string };

function PeriodForm({ search, current, errors }: { search: Search; current: string | null; errors: PeriodError[] }) {
  const errorOf = (field: "from" | "to") => errors.find((e) => e.field === field)?.message;
  return (
    <>
      <ul className={own.presets} aria-label="Period">
        {PERIOD_PRESETS.map((p) => (
          <li key={p}>
            <a href={`?period=${p}`} aria-current={current === p ? "true" : undefined}>
              {PERIOD_LABELS[p]}
            </a>
          </li>
        ))}
      </ul>
      <form className={styles.filters} method="get" aria-label="Custom period" noValidate>
        {(["from", "to"] as const).map((field) => (
          <div className={styles.field} key={field}>
            <label htmlFor={field}>{field === "from" ? "From" : "To"}</label>
            <input
              id={field}
              name={field}
              type="date"
              defaultValue={search[field] ?? ""}
              aria-invalid={errorOf(field) ? true : undefined}
              aria-describedby={errorOf(field) ? `${field}-error` : undefined}
            />
            {errorOf(field) && (
              <span id={`${field}-error`} className={styles.fieldError}>
                {errorOf(field)}
              </span>
            )}
          </div>
        ))}
        <button className={styles.secondary} type="submit">
          Show
        </button>
      </form>
    </>
  );
}

export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const member = await requireMember();
  const search = await searchParams;
  const parsed = parsePeriod(search);
  const intro = (
    <>
      <h1>Analytics</h1>
      <p className={styles.lead}>
        What became of the credentials you issued: delivered, opened by their recipients, shared, and checked by the people they showed them
        to. Counted in distinct credentials and recipients, never in page loads.
      </p>
    </>
  );
  if ("errors" in parsed)
    return (
      <>
        {intro}
        <PeriodForm search={search} current={null} errors={parsed.errors} />
      </>
    );
  const funnel = await issuingFunnel(member.organization.id, parsed.period);
  const { period } = funnel;
  const custom = period.preset === "custom" ? { from: period.from ?? "", to: period.to } : {};
  return (
    <>
      {intro}
      <PeriodForm search={custom} current={period.preset} errors={[]} />
      <div className={own.toolbar}>
        <p className={own.periodNote} data-period>
          Credentials issued from {funnel.from} to {period.to}
          {period.preset === "all" ? " (all time)" : ""}, and everything that happened to them since. Days are UTC days (your organization
          has no time zone setting).
        </p>
        <a className={own.download} href={`/dashboard/analytics/export?${periodQuery(period)}`} download>
          Download CSV
        </a>
      </div>
      <section className={styles.section} aria-labelledby="funnel-heading">
        <h2 id="funnel-heading">Funnel, all templates</h2>
        <FunnelStages counts={funnel.overall} />
        <p className={own.note}>
          A recipient is one email address. A credential counts once at each stage however often it was opened or checked. Guests are
          counted by credential: the wallet keeps no identifier of the people who look at it. A stage can exceed the one before it, e.g.
          when a credential reached its recipient without an email.
        </p>
      </section>
      <section className={styles.section} aria-labelledby="series-heading">
        <h2 id="series-heading">Over time, by {funnel.bucket} of issue</h2>
        <SeriesChart series={funnel.series} bucket={funnel.bucket} />
      </section>
      <section className={styles.section} aria-labelledby="templates-heading">
        <h2 id="templates-heading">Per template</h2>
        <TemplateTable rows={funnel.perTemplate} />
      </section>
    </>
  );
}
