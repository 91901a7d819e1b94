// The analytics funnel and its series, server-rendered: no chart library, no client JavaScript. The
// series chart is an SVG image with a summary for screen readers; the same numbers are in a table
// under it, and each line has its own dash pattern, so nothing depends on telling colours apart.
import {
  FUNNEL_STAGES,
  percentOf,
  type FunnelCounts,
  type FunnelStage,
  type SeriesBucket,
  type SeriesPoint,
} from "@/lib/interactions/funnel";
import { BUCKET_LABELS, EMAIL_OUTCOME_LABELS, STAGE_LABELS } from "@/lib/interactions/labels";
import dashboard from "../dashboard.module.css";
import { ScrollRegion } from "../scroll-region";
import styles from "./analytics.module.css";

const format = (n: number) => n.toLocaleString("en-US");

const STAGE_STYLE: Record<FunnelStage, { color: string; dash: string }> = {
  issued: { color: "#334155", dash: "" },
  delivered: { color: "#1d4ed8", dash: "6 3" },
  opened: { color: "#0f766e", dash: "2 3" },
  shared: { color: "#b45309", dash: "8 3 2 3" },
  verified: { color: "#7c3aed", dash: "2 2" },
};

export function FunnelStages({ counts }: { counts: FunnelCounts }) {
  const issued = counts.credentials.issued;
  return (
    <>
      <ol className={styles.stages} aria-label="Funnel">
        {FUNNEL_STAGES.map((stage, i) => {
          const n = counts.credentials[stage];
          const previous = i === 0 ? null : counts.credentials[FUNNEL_STAGES[i - 1]!];
          const ofIssued = percentOf(n, issued);
          const ofPrevious = previous === null ? null : percentOf(n, previous);
          return (
            <li key={stage} className={styles.stage} data-stage={stage}>
              <div className={styles.stageHead}>
                <span className={styles.stageName}>{STAGE_LABELS[stage]}</span>
                <span className={styles.stageCount}>
                  <strong data-count="credentials">{format(n)}</strong> {n === 1 ? "credential" : "credentials"} ·{" "}
                  <span data-count="recipients">{format(counts.recipients[stage])}</span>{" "}
                  {counts.recipients[stage] === 1 ? "recipient" : "recipients"}
                </span>
              </div>
              <div className={styles.track} aria-hidden="true">
                <span style={{ width: `${issued === 0 ? 0 : Math.min(100, (n / issued) * 100)}%`, background: STAGE_STYLE[stage].color }} />
              </div>
              {i > 0 && (
                <span className={styles.percents}>
                  {ofPrevious ?? "–"} of the previous stage · {ofIssued ?? "–"} of issued
                </span>
              )}
              {stage === "delivered" && (
                <ul className={styles.outcomes} aria-label="Credentials whose email was not delivered">
                  {(Object.keys(EMAIL_OUTCOME_LABELS) as (keyof typeof EMAIL_OUTCOME_LABELS)[]).map((k) => (
                    <li key={k} data-outcome={k}>
                      {EMAIL_OUTCOME_LABELS[k]}: <strong>{format(counts.email[k])}</strong>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

function LegendMark({ stage }: { stage: FunnelStage }) {
  const s = STAGE_STYLE[stage];
  return (
    <svg width="22" height="8" aria-hidden="true">
      <line x1="0" x2="22" y1="4" y2="4" stroke={s.color} strokeWidth="2.5" strokeDasharray={s.dash || undefined} />
    </svg>
  );
}

/** The lines, drawn for one width: the page carries a wide and a narrow drawing and CSS shows one. */
function SeriesLines({ series, bucket, width, summary }: { series: SeriesPoint[]; bucket: SeriesBucket; width: number; summary: string }) {
  const height = 240;
  const pad = { left: 44, right: 28, top: 12, bottom: 28 };
  const max = Math.max(1, ...series.map((p) => Math.max(...FUNNEL_STAGES.map((s) => p.credentials[s]))));
  const stepX = series.length > 1 ? (width - pad.left - pad.right) / (series.length - 1) : 0;
  const x = (i: number) => pad.left + (series.length > 1 ? i * stepX : (width - pad.left - pad.right) / 2);
  const y = (v: number) => height - pad.bottom - ((height - pad.top - pad.bottom) * v) / max;
  const labelEvery = Math.max(1, Math.ceil(series.length / (width < 500 ? 4 : 8)));
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={summary} data-chart="series">
      {/* Gridlines at whole counts (0, about half, the top), each once: a top of 1 has no half. */}
      {[...new Set([0, Math.round(max / 2), max])].map((value) => (
        <g key={value}>
          <line x1={pad.left} x2={width - pad.right} y1={y(value)} y2={y(value)} stroke="#e5e7eb" />
          <text x={pad.left - 6} y={y(value) + 4} fontSize="12" textAnchor="end" fill="#4b5563">
            {format(value)}
          </text>
        </g>
      ))}
      {series.map((p, i) =>
        i % labelEvery === 0 || i === series.length - 1 ? (
          <text key={p.start} x={x(i)} y={height - 8} fontSize="12" textAnchor="middle" fill="#4b5563">
            {bucket === "month" ? p.start.slice(0, 7) : p.start.slice(5)}
          </text>
        ) : null,
      )}
      {FUNNEL_STAGES.map((stage) => {
        const s = STAGE_STYLE[stage];
        const points = series.map((p, i) => `${x(i).toFixed(1)},${y(p.credentials[stage]).toFixed(1)}`).join(" ");
        return series.length === 1 ? (
          <circle key={stage} cx={x(0)} cy={y(series[0]!.credentials[stage])} r="4" fill={s.color} />
        ) : (
          <polyline key={stage} points={points} fill="none" stroke={s.color} strokeWidth="2.5" strokeDasharray={s.dash || undefined} />
        );
      })}
    </svg>
  );
}

export function SeriesChart({ series, bucket }: { series: SeriesPoint[]; bucket: SeriesBucket }) {
  const unit = bucket;
  const totals = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, series.reduce((n, p) => n + p.credentials[s], 0)]));
  const summary = `Credentials per ${unit} of issue, ${series.length} ${unit}s: ${FUNNEL_STAGES.map((s) => `${STAGE_LABELS[s].toLowerCase()} ${format(totals[s]!)}`).join(", ")}. The numbers are in the table below.`;
  // Only one drawing is displayed (CSS), so assistive technology meets one image.
  return (
    <figure style={{ margin: 0 }}>
      <div className={styles.wide}>
        <SeriesLines series={series} bucket={bucket} width={760} summary={summary} />
      </div>
      <div className={styles.narrow}>
        <SeriesLines series={series} bucket={bucket} width={360} summary={summary} />
      </div>
      <figcaption className={styles.legend}>
        {FUNNEL_STAGES.map((stage) => (
          <span key={stage}>
            <LegendMark stage={stage} />
            {STAGE_LABELS[stage]}
          </span>
        ))}
      </figcaption>
      <details className={styles.numbers}>
        <summary>The numbers, per {unit}</summary>
        <ScrollRegion label={`Credentials per ${unit} of issue`}>
          <table className={dashboard.table}>
            <thead>
              <tr>
                <th scope="col">{BUCKET_LABELS[bucket]}</th>
                {FUNNEL_STAGES.map((s) => (
                  <th key={s} scope="col" className={styles.num}>
                    {STAGE_LABELS[s]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {series.map((p) => (
                <tr key={p.start}>
                  <th scope="row">{bucket === "month" ? p.start.slice(0, 7) : p.start}</th>
                  {FUNNEL_STAGES.map((s) => (
                    <td key={s} className={styles.num}>
                      {format(p.credentials[s])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
}

export function TemplateTable({ rows }: { rows: ({ groupId: string; name: string } & FunnelCounts)[] }) {
  if (rows.length === 0) return <p className={dashboard.muted}>No credentials were issued in this period.</p>;
  return (
    <ScrollRegion label="Funnel per template">
      <table className={dashboard.table}>
        <thead>
          <tr>
            <th scope="col">Template</th>
            {FUNNEL_STAGES.map((s) => (
              <th key={s} scope="col" className={styles.num}>
                {STAGE_LABELS[s]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.groupId} data-template={t.groupId}>
              <th scope="row">{t.name}</th>
              {FUNNEL_STAGES.map((s) => (
                <td key={s} className={styles.num}>
                  {format(t.credentials[s])}
                  {s !== "issued" && <span className={styles.sub}>{percentOf(t.credentials[s], t.credentials.issued) ?? "–"}</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
