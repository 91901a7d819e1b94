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
// the events themselves, and so does the email outcome (lib/mail/credential-outcome.ts, kept with the
// outbox's writes). The day series is summed into weeks or months here for long periods.
import { addPeriod } from "../core/dates";
import { config } from "../config";
import { db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { mailOutcomeSql as outcome } from "../mail/credential-outcome";
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
  // Timestamps are ISO text on SQLite and timestamp(3) (UTC) on PostgreSQL. PostgreSQL groups by the
  // date and writes it as text once per day (dayKey): to_char on every credential was a tenth of the
  // all-time answer.
  return config().databaseProvider === "sqlite" ? Prisma.raw(`substr(c."issuedAt", 1, 10)`) : Prisma.raw(`(c."issuedAt")::date`);
}

/** An issue day of the flags as YYYY-MM-DD text. */
function dayKey(): Prisma.Sql {
  return config().databaseProvider === "sqlite" ? Prisma.raw(`f."day"`) : Prisma.raw(`to_char(f."day", 'YYYY-MM-DD')`);
}

type CountsRow = {
  /** `group`: a template's credentials (the stage columns) and recipients (the `people…` columns); `day`: an issue day's credentials; `people`: every recipient. */
  kind: "group" | "day" | "people";
  key: string;
  issued: unknown;
  delivered: unknown;
  bounced: unknown;
  failed: unknown;
  waiting: unknown;
  opened: unknown;
  shared: unknown;
  verified: unknown;
  peopleIssued?: unknown;
  peopleDelivered?: unknown;
  peopleOpened?: unknown;
  peopleShared?: unknown;
  peopleVerified?: unknown;
};

const CREDENTIAL_COUNTS = Prisma.sql`
  COUNT(*) AS "issued",
  SUM(CASE WHEN f."mail" = ${outcome("delivered")} THEN 1 ELSE 0 END) AS "delivered",
  SUM(CASE WHEN f."mail" = ${outcome("bounced")} THEN 1 ELSE 0 END) AS "bounced",
  SUM(CASE WHEN f."mail" = ${outcome("failed")} THEN 1 ELSE 0 END) AS "failed",
  SUM(CASE WHEN f."mail" = ${outcome("waiting")} THEN 1 ELSE 0 END) AS "waiting",
  SUM(f."opened") AS "opened", SUM(f."shared") AS "shared", SUM(f."verified") AS "verified"`;

const PEOPLE_PER_GROUP = Prisma.sql`
  COUNT(p."recipientId") AS "peopleIssued",
  SUM(CASE WHEN p."recipientId" IS NULL THEN 0 ELSE p."deliveredReached" END) AS "peopleDelivered",
  SUM(CASE WHEN p."recipientId" IS NULL THEN 0 ELSE p."openedReached" END) AS "peopleOpened",
  SUM(CASE WHEN p."recipientId" IS NULL THEN 0 ELSE p."sharedReached" END) AS "peopleShared",
  SUM(CASE WHEN p."recipientId" IS NULL THEN 0 ELSE p."verifiedReached" END) AS "peopleVerified"`;

/**
 * The templates' rows. Their distinct recipients come from the pairs; their credential counts from the
 * pairs on SQLite, whose GROUP BY sorts every input row (summing 70,000 pairs beat sorting 100,000
 * credentials again), and from the credentials on PostgreSQL, whose hash aggregate over ten
 * templates is cheap while carrying eight sums through 70,000 pairs was not (bench:funnel, both).
 */
function templateRows(sqlite: boolean): Prisma.Sql {
  if (sqlite)
    return Prisma.sql`
      SELECT 'group' AS "kind", p."groupId" AS "key",
        SUM(p."issued") AS "issued", SUM(p."delivered") AS "delivered", SUM(p."bounced") AS "bounced", SUM(p."failed") AS "failed",
        SUM(p."waiting") AS "waiting", SUM(p."opened") AS "opened", SUM(p."shared") AS "shared", SUM(p."verified") AS "verified",
        ${PEOPLE_PER_GROUP}
      FROM "pairs" p GROUP BY p."groupId"`;
  return Prisma.sql`
    SELECT 'group' AS "kind", g."groupId" AS "key", g."issued", g."delivered", g."bounced", g."failed", g."waiting",
      g."opened", g."shared", g."verified",
      COALESCE(gp."peopleIssued", 0) AS "peopleIssued", COALESCE(gp."peopleDelivered", 0) AS "peopleDelivered", COALESCE(gp."peopleOpened", 0) AS "peopleOpened",
      COALESCE(gp."peopleShared", 0) AS "peopleShared", COALESCE(gp."peopleVerified", 0) AS "peopleVerified"
    FROM (SELECT f."groupId", ${CREDENTIAL_COUNTS} FROM "flags" f GROUP BY f."groupId") g
    LEFT JOIN (SELECT p."groupId", ${PEOPLE_PER_GROUP} FROM "pairs" p GROUP BY p."groupId") gp ON gp."groupId" = g."groupId"`;
}

/**
 * One row per credential issued in the period (its flags, from its CredentialEngagement row: the
 * wallet signals and the email outcome), then one per recipient and template (pairs: whether any of
 * the pair's credentials reached each stage, and on SQLite the pair's credential counts), then: per
 * template its credentials and distinct recipients (templateRows), per issue day the credentials, and
 * overall the distinct recipients. Recipients are counted by grouping rather than COUNT(DISTINCT …)
 * per stage: one grouping instead of one per stage.
 */
async function funnelRows(organizationId: string, period: Period): Promise<CountsRow[]> {
  const sqlite = config().databaseProvider === "sqlite";
  const { start, end } = periodBounds(period);
  const since = start === null ? Prisma.empty : Prisma.sql`AND c."issuedAt" >= ${start}`;
  const flag = (column: string) => Prisma.raw(`CASE WHEN e."${column}" THEN 1 ELSE 0 END AS "${column}"`);
  const reached = (column: string) => Prisma.raw(`MAX(f."${column}") AS "${column}Reached"`);
  return db().$queryRaw<CountsRow[]>`
    WITH "flags" AS MATERIALIZED (
      SELECT c."groupId", c."recipientId", ${issueDay()} AS "day",
        COALESCE(e."mail", ${outcome("none")}) AS "mail",
        ${flag("opened")}, ${flag("shared")}, ${flag("verified")}
      FROM "Credential" c
      LEFT JOIN "CredentialEngagement" e ON e."credentialId" = c."id" AND e."organizationId" = ${organizationId}
      WHERE c."organizationId" = ${organizationId} AND c."issuedAt" IS NOT NULL ${since} AND c."issuedAt" < ${end}
    ),
    "pairs" AS MATERIALIZED (
      SELECT f."recipientId", f."groupId", ${sqlite ? Prisma.sql`${CREDENTIAL_COUNTS},` : Prisma.empty}
        MAX(CASE WHEN f."mail" = ${outcome("delivered")} THEN 1 ELSE 0 END) AS "deliveredReached",
        ${reached("opened")}, ${reached("shared")}, ${reached("verified")}
      FROM "flags" f
      ${sqlite ? Prisma.empty : Prisma.sql`WHERE f."recipientId" IS NOT NULL`}
      GROUP BY f."recipientId", f."groupId"
    )
    ${templateRows(sqlite)}
    UNION ALL
    SELECT 'day' AS "kind", ${dayKey()} AS "key", ${CREDENTIAL_COUNTS}, 0, 0, 0, 0, 0 FROM "flags" f GROUP BY f."day"
    UNION ALL
    SELECT 'people' AS "kind", '' AS "key", COUNT(*) AS "issued", SUM(r."delivered") AS "delivered", 0, 0, 0,
      SUM(r."opened") AS "opened", SUM(r."shared") AS "shared", SUM(r."verified") AS "verified", 0, 0, 0, 0, 0
    FROM (
      SELECT p."recipientId", MAX(p."deliveredReached") AS "delivered", MAX(p."openedReached") AS "opened",
        MAX(p."sharedReached") AS "shared", MAX(p."verifiedReached") AS "verified"
      FROM "pairs" p WHERE p."recipientId" IS NOT NULL GROUP BY p."recipientId"
    ) r`;
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

/** A template row's distinct recipients per stage. */
function recipientsOf(row: CountsRow): StageCounts {
  return {
    issued: number(row.peopleIssued),
    delivered: number(row.peopleDelivered),
    opened: number(row.peopleOpened),
    shared: number(row.peopleShared),
    verified: number(row.peopleVerified),
  };
}

function countsOf(credentialRows: CountsRow[], recipients: StageCounts): FunnelCounts {
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
  return { credentials, recipients, email };
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
  const groupRows = rows.filter((r) => r.kind === "group");
  const perTemplate = groupRows
    .map((r) => ({ groupId: r.key, name: names.get(r.key) ?? r.key, ...countsOf([r], recipientsOf(r)) }))
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
    overall: countsOf(groupRows, stagesOf(rows.find((r) => r.kind === "people"))),
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
