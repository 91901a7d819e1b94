// The funnel and its series as one CSV table (the analytics page's export): a row for all templates,
// one per template, then one per day, week or month of issue. Recipient and email-outcome columns are
// empty on series rows (the series counts credentials).
import { formatCsv } from "../imports/csv";
import { FUNNEL_STAGES, type Funnel, type FunnelCounts } from "./funnel";
import { BUCKET_LABELS, STAGE_LABELS } from "./labels";
import { periodSlug } from "./period";

const HEADER = [
  "Row",
  "Template or period start",
  ...FUNNEL_STAGES.map((s) => `${STAGE_LABELS[s]} (credentials)`),
  "Bounced",
  "Failed",
  "Waiting to be sent",
  "Not emailed",
  ...FUNNEL_STAGES.map((s) => `${STAGE_LABELS[s]} (recipients)`),
];

function countsRow(kind: string, name: string, c: FunnelCounts): (string | number)[] {
  return [
    kind,
    name,
    ...FUNNEL_STAGES.map((s) => c.credentials[s]),
    c.email.bounced,
    c.email.failed,
    c.email.waiting,
    c.email.notSent,
    ...FUNNEL_STAGES.map((s) => c.recipients[s]),
  ];
}

export function funnelCsv(funnel: Funnel): string {
  const rows: (string | number)[][] = [HEADER, countsRow("All templates", "", funnel.overall)];
  for (const t of funnel.perTemplate) rows.push(countsRow("Template", t.name, t));
  for (const p of funnel.series)
    rows.push([BUCKET_LABELS[funnel.bucket], p.start, ...FUNNEL_STAGES.map((s) => p.credentials[s]), "", "", "", "", "", "", "", "", ""]);
  return formatCsv(rows);
}

/** `analytics-<organization>-<period>.csv`, in characters every file system and header accepts. */
export function funnelCsvFilename(organizationSlug: string, funnel: Funnel): string {
  const org = organizationSlug.replace(/[^a-zA-Z0-9-]+/g, "-").slice(0, 60) || "organization";
  return `analytics-${org}-${periodSlug(funnel.period)}.csv`;
}
