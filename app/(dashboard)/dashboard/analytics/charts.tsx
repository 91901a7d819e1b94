// Small server-rendered SVG charts: no chart library, no client JavaScript, readable without colour
// (every bar has a title and the tables beside them carry the numbers).
import styles from "../dashboard.module.css";

export type Series = { key: string; label: string; color: string };

export function StackedBars({
  days,
  values,
  series,
}: {
  days: string[];
  values: Record<string, Record<string, number>>;
  series: Series[];
}) {
  const width = 760;
  const height = 220;
  const pad = { left: 36, bottom: 24, top: 8 };
  const totals = days.map((d) => series.reduce((sum, s) => sum + (values[d]?.[s.key] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const step = (width - pad.left) / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.7);
  const y = (v: number) => ((height - pad.bottom - pad.top) * v) / max;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label="Events per day">
        <line x1={pad.left} x2={width} y1={height - pad.bottom} y2={height - pad.bottom} stroke="#d1d5db" />
        <text x={pad.left - 6} y={pad.top + 10} fontSize="11" textAnchor="end" fill="#6b7280">
          {max}
        </text>
        <text x={pad.left - 6} y={height - pad.bottom} fontSize="11" textAnchor="end" fill="#6b7280">
          0
        </text>
        {days.map((d, i) => {
          let base = height - pad.bottom;
          const x = pad.left + i * step + (step - bar) / 2;
          return (
            <g key={d}>
              {series.map((s) => {
                const v = values[d]?.[s.key] ?? 0;
                if (!v) return null;
                const h = y(v);
                base -= h;
                return (
                  <rect key={s.key} x={x} y={base} width={bar} height={h} fill={s.color}>
                    <title>{`${d}: ${v} ${s.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
              {i % labelEvery === 0 && (
                <text x={x + bar / 2} y={height - 6} fontSize="10" textAnchor="middle" fill="#6b7280">
                  {d.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className={styles.legend}>
        {series.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export function HorizontalBars({
  rows,
  color = "#1d4ed8",
  label,
}: {
  rows: { label: string; value: number }[];
  color?: string;
  label: string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  if (rows.length === 0) return <p className={styles.muted}>Nothing in this range.</p>;
  return (
    <div role="list" aria-label={label} className={styles.hbars}>
      {rows.map((r) => (
        <div role="listitem" key={r.label} className={styles.hbar}>
          <span>{r.label}</span>
          <span className={styles.hbarTrack}>
            <span style={{ width: `${(r.value / max) * 100}%`, background: color }} />
          </span>
          <strong>{r.value}</strong>
        </div>
      ))}
    </div>
  );
}
