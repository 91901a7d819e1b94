// The issuing funnel: of the credentials issued in a period, how many had their email delivered, were
// opened by their recipient, were shared (or added to a LinkedIn profile) and were verified by a guest.
// Counted in distinct credentials and distinct recipients (a recipient is one email address of the
// organization), never in page loads: a credential opened fifty times is opened once. Guests carry no
// identifier of their own (the wallet records none), so guests are counted by credential only.
//
// Every stage is a signal the service already records: the credential email's outbox rows (delivered,
// bounced, failed) and the wallet's interaction events. No tracking pixel, no extra request.
//
// A stage counts a credential that has that stage's signal, whatever happened before: a credential
// handed out without an email can still be opened and shared, so a stage may exceed the one before it.
//
// One statement per funnel, set-based: each credential's signals are reduced to flags once (a
// materialized CTE), then counted per template, overall and per issue day. The wallet signals come from
// CredentialEngagement (engagement.ts: one row per credential, kept with the events) rather than from
// the events themselves, and the email outcomes from the outbox's index. The day series is summed into
// weeks or months here for long periods.
import { addPeriod } from "../core/dates";
import { config } from "../config";
import { db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { bouncedCondition } from "../mail/bounces";
import { periodBounds, type Period } from "./period";

export const FUNNEL_STAGES = ["issued", "delivered", "opened", "shared", "verified"] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export type StageCounts = Record<FunnelStage, number>;

/** What became of the credential emails of the issued credentials; each credential counts in one. */
export type EmailOutcomes = { delivered: number; bounced: number; failed: number; waiting: number; notSent: number };

export type FunnelCounts = { credentials: StageCounts; recipients: StageCounts; email: EmailOutcomes };

export type SeriesBucket = "day" | "week" | "month";
export type SeriesPoint = { start: string; credentials: StageCounts };

export type Funnel = {
  period: Period;
  /** The first day counted: the period's, or for all time the first issue day (the period's end when nothing was issued). */
  from: string;
  overall: FunnelCounts;
  perTemplate: ({ groupId: string; name: string } & FunnelCounts)[];
  bucket: SeriesBucket;
  series: SeriesPoint[];
};

/** Days per bucket: a point per day up to three months, per week up to two years, per month beyond. */
export function seriesBucket(from: string, to: string): SeriesBucket {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  return days <= 92 ? "day" : days <= 731 ? "week" : "month";
}

/** The first day of the bucket a day falls in: weeks start on Monday (ISO 8601), months on the 1st. */
export function bucketStart(day: string, bucket: SeriesBucket): string {
  if (bucket === "day") return day;
  if (bucket === "month") return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addPeriod(day, -weekday, "day");
}

function nextBucket(start: string, bucket: SeriesBucket): string {
  return bucket === "day" ? addPeriod(start, 1, "day") : bucket === "week" ? addPeriod(start, 7, "day") : addPeriod(start, 1, "month");
}

const zeroStages = (): StageCounts => ({ issued: 0, delivered: 0, opened: 0, shared: 0, verified: 0 });

function issueDay(): Prisma.Sql {
  // Timestamps are ISO text on SQLite and timestamp(3) (UTC) on PostgreSQL.
  return config().databaseProvider === "sqlite"
    ? Prisma.raw(`substr(c."issuedAt", 1, 10)`)
    : Prisma.raw(`to_char(c."issuedAt", 'YYYY-MM-DD')`);
}

type CountsRow = {
  kind: "group" | "day" | "groupPeople" | "people";
  key: string;
  issued: unknown;
  delivered: unknown;
  bounced: unknown;
  failed: unknown;
  waiting: unknown;
  opened: unknown;
  shared: unknown;
  verified: unknown;
};

// A credential's email outcome as one number, the most telling first: delivered (any of its credential
// emails sent) 4, else bounced 3, else failed 2, else waiting 1, else none (never sent, or cancelled) 0.
const MAIL_OUTCOME = { delivered: 4, bounced: 3, failed: 2, waiting: 1 } as const;
const outcome = (name: keyof typeof MAIL_OUTCOME) => Prisma.raw(String(MAIL_OUTCOME[name]));

const STAGE_SUMS = Prisma.sql`
  SUM(f."opened") AS "opened", SUM(f."shared") AS "shared", SUM(f."verified") AS "verified"`;

const CREDENTIAL_COUNTS = Prisma.sql`
  COUNT(*) AS "issued",
  SUM(CASE WHEN f."mail" = ${outcome("delivered")} THEN 1 ELSE 0 END) AS "delivered",
  SUM(CASE WHEN f."mail" = ${outcome("bounced")} THEN 1 ELSE 0 END) AS "bounced",
  SUM(CASE WHEN f."mail" = ${outcome("failed")} THEN 1 ELSE 0 END) AS "failed",
  SUM(CASE WHEN f."mail" = ${outcome("waiting")} THEN 1 ELSE 0 END) AS "waiting",
  ${STAGE_SUMS}`;

const PEOPLE_COUNTS = Prisma.sql`
  COUNT(*) AS "issued", SUM(f."delivered") AS "delivered", 0 AS "bounced", 0 AS "failed", 0 AS "waiting", ${STAGE_SUMS}`;

/**
 * Each credential's email outcome (MAIL_OUTCOME), the largest of its credential emails'. PostgreSQL
 * aggregates the organization's emails once and hash-joins them (a probe per credential took 1.5× as
 * long); SQLite probes the outbox's covering index per credential, which beat building an index on the
 * aggregated rows.
 */
function mailOutcome(organizationId: string): { value: Prisma.Sql; join: Prisma.Sql } {
  const outcomeOf = Prisma.sql`MAX(CASE
    WHEN o."status" = 'sent' THEN ${outcome("delivered")}
    WHEN o."status" = 'failed' AND ${bouncedCondition("o")} THEN ${outcome("bounced")}
    WHEN o."status" = 'failed' THEN ${outcome("failed")}
    WHEN o."status" = 'queued' THEN ${outcome("waiting")}
    ELSE 0 END)`;
  const own = Prisma.sql`o."organizationId" = ${organizationId} AND o."kind" = 'credential'`;
  if (config().databaseProvider === "sqlite")
    return {
      value: Prisma.sql`COALESCE((SELECT ${outcomeOf} FROM "EmailOutbox" o WHERE ${own} AND o."credentialId" = c."id"), 0)`,
      join: Prisma.empty,
    };
  return {
    value: Prisma.sql`COALESCE(m."mail", 0)`,
    join: Prisma.sql`LEFT JOIN (
      SELECT o."credentialId", ${outcomeOf} AS "mail" FROM "EmailOutbox" o
      WHERE ${own} AND o."credentialId" IS NOT NULL GROUP BY o."credentialId"
    ) m ON m."credentialId" = c."id"`,
  };
}

/**
 * One row per credential issued in the period (flags), one per recipient and template (people), then
 * counts of credentials per template and per issue day, and of recipients per template and overall.
 * Distinct recipients are counted by grouping rather than COUNT(DISTINCT …) per stage: one sort
 * instead of one per stage and grouping.
 */
async function funnelRows(organizationId: string, period: Period): Promise<CountsRow[]> {
  const { start, end } = periodBounds(period);
  const since = start === null ? Prisma.empty : Prisma.sql`AND c."issuedAt" >= ${start}`;
  const mail = mailOutcome(organizationId);
  const flag = (column: string) => Prisma.raw(`CASE WHEN e."${column}" THEN 1 ELSE 0 END AS "${column}"`);
  return db().$queryRaw<CountsRow[]>`
    WITH "flags" AS MATERIALIZED (
      SELECT c."groupId", c."recipientId", ${issueDay()} AS "day",
        ${mail.value} AS "mail",
        ${flag("opened")}, ${flag("shared")}, ${flag("verified")}
      FROM "Credential" c
      LEFT JOIN "CredentialEngagement" e ON e."credentialId" = c."id"
      ${mail.join}
      WHERE c."organizationId" = ${organizationId} AND c."issuedAt" IS NOT NULL ${since} AND c."issuedAt" < ${end}
    ),
    "people" AS MATERIALIZED (
      SELECT f."groupId", f."recipientId",
        MAX(CASE WHEN f."mail" = ${outcome("delivered")} THEN 1 ELSE 0 END) AS "delivered",
        MAX(f."opened") AS "opened", MAX(f."shared") AS "shared", MAX(f."verified") AS "verified"
      FROM "flags" f
      WHERE f."recipientId" IS NOT NULL
      GROUP BY f."groupId", f."recipientId"
    )
    SELECT 'group' AS "kind", f."groupId" AS "key", ${CREDENTIAL_COUNTS} FROM "flags" f GROUP BY f."groupId"
    UNION ALL
    SELECT 'day' AS "kind", f."day" AS "key", ${CREDENTIAL_COUNTS} FROM "flags" f GROUP BY f."day"
    UNION ALL
    SELECT 'groupPeople' AS "kind", f."groupId" AS "key", ${PEOPLE_COUNTS} FROM "people" f GROUP BY f."groupId"
    UNION ALL
    SELECT 'people' AS "kind", '' AS "key", ${PEOPLE_COUNTS}
    FROM (
      SELECT p."recipientId", MAX(p."delivered") AS "delivered", MAX(p."opened") AS "opened", MAX(p."shared") AS "shared",
        MAX(p."verified") AS "verified"
      FROM "people" p GROUP BY p."recipientId"
    ) f`;
}

const number = (v: unknown) => Number(v ?? 0);

function stagesOf(row: CountsRow | undefined): StageCounts {
  if (!row) return zeroStages();
  return {
    issued: number(row.issued),
    delivered: number(row.delivered),
    opened: number(row.opened),
    shared: number(row.shared),
    verified: number(row.verified),
  };
}

function countsOf(credentialRows: CountsRow[], peopleRow: CountsRow | undefined): FunnelCounts {
  const credentials = zeroStages();
  const email: EmailOutcomes = { delivered: 0, bounced: 0, failed: 0, waiting: 0, notSent: 0 };
  for (const row of credentialRows) {
    const stages = stagesOf(row);
    for (const stage of FUNNEL_STAGES) credentials[stage] += stages[stage];
    email.bounced += number(row.bounced);
    email.failed += number(row.failed);
    email.waiting += number(row.waiting);
  }
  email.delivered = credentials.delivered;
  email.notSent = credentials.issued - email.delivered - email.bounced - email.failed - email.waiting;
  return { credentials, recipients: stagesOf(peopleRow), email };
}

/** The funnel of the organization's credentials issued in `period`, overall, per template and over time. */
export async function issuingFunnel(organizationId: string, period: Period): Promise<Funnel> {
  const rows = await funnelRows(organizationId, period);
  const days = rows.filter((r) => r.kind === "day").sort((a, b) => (a.key < b.key ? -1 : 1));
  const from = period.from ?? days[0]?.key ?? period.to;
  const groupIds = rows.filter((r) => r.kind === "group").map((r) => r.key);
  const groups =
    groupIds.length === 0
      ? []
      : await db().group.findMany({ where: { organizationId, id: { in: groupIds } }, select: { id: true, name: true } });
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const groupPeople = new Map(rows.filter((r) => r.kind === "groupPeople").map((r) => [r.key, r]));
  const groupRows = rows.filter((r) => r.kind === "group");
  const perTemplate = groupRows
    .map((r) => ({ groupId: r.key, name: names.get(r.key) ?? r.key, ...countsOf([r], groupPeople.get(r.key)) }))
    .sort((a, b) => b.credentials.issued - a.credentials.issued || a.name.localeCompare(b.name));

  const bucket = seriesBucket(from, period.to);
  const points = new Map<string, StageCounts>();
  for (let s = bucketStart(from, bucket); s <= period.to; s = nextBucket(s, bucket)) points.set(s, zeroStages());
  for (const row of days) {
    const point = points.get(bucketStart(row.key, bucket));
    if (!point) continue;
    const credentials = stagesOf(row);
    for (const stage of FUNNEL_STAGES) point[stage] += credentials[stage];
  }
  return {
    period,
    from,
    overall: countsOf(
      groupRows,
      rows.find((r) => r.kind === "people"),
    ),
    perTemplate,
    bucket,
    series: [...points].map(([start, credentials]) => ({ start, credentials })),
  };
}

/** `part` as a whole percentage of `whole` (one decimal below 10%), or null when `whole` is 0. */
export function percentOf(part: number, whole: number): string | null {
  if (whole === 0) return null;
  const p = (part / whole) * 100;
  return `${p < 10 && p > 0 ? p.toFixed(1) : Math.round(p)}%`;
}
