import { requireMember } from "@/lib/auth/member";
import { isCalendarDate } from "@/lib/core/dates";
import { analyticsRange, interactionAnalytics } from "@/lib/interactions/analytics";
import type { EventType } from "@/lib/interactions/schema";
import styles from "../dashboard.module.css";
import { HorizontalBars, StackedBars, type Series } from "./charts";

export const metadata = { title: "Analytics" };

// Thirteen event types read better as five kinds of activity.
const KINDS: (Series & { types: (t: EventType) => boolean })[] = [
  { key: "views", label: "Views", color: "#1d4ed8", types: (t) => t === "credential_viewed" },
  {
    key: "shares",
    label: "Shares",
    color: "#16a34a",
    types: (t) => t.startsWith("credential_shared_to_") || t === "credential_added_to_linkedin_profile",
  },
  { key: "downloads", label: "Downloads", color: "#d97706", types: (t) => t === "credential_downloaded" },
  { key: "verifications", label: "Verifications", color: "#7c3aed", types: (t) => t === "credential_verified" },
  { key: "copies", label: "Link copies", color: "#64748b", types: (t) => t === "credential_link_copied" },
];

function byKind(counts: Partial<Record<EventType, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, n] of Object.entries(counts) as [EventType, number][]) {
    const kind = KINDS.find((k) => k.types(type));
    if (kind) out[kind.key] = (out[kind.key] ?? 0) + n;
  }
  return out;
}

export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<{ from?: string; to?: string }> }) {
  const member = await requireMember();
  const params = await searchParams;
  const range = analyticsRange(params.from, params.to, isCalendarDate);
  const data = await interactionAnalytics(member.organization.id, range);
  const perDay = Object.fromEntries(Object.entries(data.perDay).map(([d, counts]) => [d, byKind(counts)]));
  const totals = byKind(data.totals);
  return (
    <>
      <h1>Analytics</h1>
      <p className={styles.lead}>What recipients and the people they share with do on your credentials&apos; wallet pages.</p>
      <form className={styles.filters} method="get">
        <div className={styles.field}>
          <label htmlFor="from">From</label>
          <input id="from" name="from" type="date" defaultValue={range.from} />
        </div>
        <div className={styles.field}>
          <label htmlFor="to">To</label>
          <input id="to" name="to" type="date" defaultValue={range.to} />
        </div>
        <button className={styles.secondary} type="submit">
          Show
        </button>
      </form>
      <div className={styles.grid}>
        {KINDS.map((k) => (
          <div className={styles.stat} key={k.key} data-kind={k.key}>
            <strong>{totals[k.key] ?? 0}</strong>
            <span>{k.label}</span>
          </div>
        ))}
      </div>
      <section className={styles.section}>
        <h2>Per day</h2>
        <StackedBars days={data.days} values={perDay} series={KINDS} />
      </section>
      <div className={styles.twoColumns}>
        <section className={styles.section}>
          <h2>Recipients and guests</h2>
          <HorizontalBars
            label="Events by who triggered them"
            rows={[
              { label: "Recipients", value: data.byActor.recipient },
              { label: "Guests (employers, contacts)", value: data.byActor.guest },
            ].filter((r) => r.value > 0)}
          />
        </section>
        <section className={styles.section}>
          <h2>Top share networks</h2>
          <HorizontalBars label="Shares by network" color="#16a34a" rows={data.shares.map((s) => ({ label: s.network, value: s.count }))} />
        </section>
      </div>
      <section className={styles.section}>
        <h2>Per credential template</h2>
        <HorizontalBars
          label="Events by credential template"
          color="#7c3aed"
          rows={data.perTemplate.map((t) => ({ label: t.name, value: t.count }))}
        />
      </section>
    </>
  );
}
