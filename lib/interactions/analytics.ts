// Interaction analytics for the dashboard: counts in a date range (UTC days, both ends included) per
// day and event type, per actor, per credential template and per share network. Aggregated by the
// database: an organization may have millions of events.
import { addPeriod, todayUtc } from "../core/dates";
import { config } from "../config";
import { db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { EVENT_TYPES, type EventType } from "./schema";

export const MAX_RANGE_DAYS = 366;

export type AnalyticsRange = { from: string; to: string };

export type Analytics = {
  range: AnalyticsRange;
  days: string[];
  /** day → event type → count */
  perDay: Record<string, Partial<Record<EventType, number>>>;
  totals: Partial<Record<EventType, number>>;
  byActor: { recipient: number; guest: number };
  perTemplate: { groupId: string; name: string; count: number }[];
  shares: { network: string; count: number }[];
};

/** The last 30 days unless told otherwise; a range is clamped to MAX_RANGE_DAYS. */
export function analyticsRange(from: string | undefined, to: string | undefined, isDate: (s: string) => boolean): AnalyticsRange {
  const end = to && isDate(to) ? to : todayUtc();
  let start = from && isDate(from) ? from : addPeriod(end, -29, "day");
  if (start > end) start = end;
  if (addPeriod(start, MAX_RANGE_DAYS - 1, "day") < end) start = addPeriod(end, -(MAX_RANGE_DAYS - 1), "day");
  return { from: start, to: end };
}

function dayExpression(): Prisma.Sql {
  // Timestamps are ISO text on SQLite and timestamp(3) (UTC) on PostgreSQL.
  return config().databaseProvider === "sqlite"
    ? Prisma.raw(`substr(i."triggeredAt", 1, 10)`)
    : Prisma.raw(`to_char(i."triggeredAt", 'YYYY-MM-DD')`);
}

export async function interactionAnalytics(organizationId: string, range: AnalyticsRange): Promise<Analytics> {
  const start = new Date(`${range.from}T00:00:00.000Z`);
  const end = new Date(`${addPeriod(range.to, 1, "day")}T00:00:00.000Z`);
  const day = dayExpression();
  const inRange = Prisma.sql`i."organizationId" = ${organizationId} AND i."triggeredAt" >= ${start} AND i."triggeredAt" < ${end}`;
  const [daily, actors, templates] = await Promise.all([
    db().$queryRaw<{ day: string; eventType: string; n: unknown }[]>`
      SELECT ${day} AS "day", i."eventType" AS "eventType", COUNT(*) AS "n" FROM "Interaction" i WHERE ${inRange} GROUP BY 1, 2`,
    db().$queryRaw<{ triggeredBy: string; n: unknown }[]>`
      SELECT i."triggeredBy" AS "triggeredBy", COUNT(*) AS "n" FROM "Interaction" i WHERE ${inRange} GROUP BY 1`,
    db().$queryRaw<{ groupId: string; name: string; n: unknown }[]>`
      SELECT g."id" AS "groupId", g."name" AS "name", COUNT(*) AS "n"
      FROM "Interaction" i JOIN "Credential" c ON c."id" = i."credentialId" JOIN "Group" g ON g."id" = c."groupId"
      WHERE ${inRange} GROUP BY g."id", g."name" ORDER BY 3 DESC LIMIT 20`,
  ]);

  const days: string[] = [];
  for (let d = range.from; d <= range.to; d = addPeriod(d, 1, "day")) days.push(d);
  const perDay: Analytics["perDay"] = Object.fromEntries(days.map((d) => [d, {}]));
  const totals: Analytics["totals"] = {};
  for (const row of daily) {
    const type = row.eventType as EventType;
    if (!EVENT_TYPES.includes(type)) continue;
    const n = Number(row.n);
    (perDay[row.day] ??= {})[type] = n;
    totals[type] = (totals[type] ?? 0) + n;
  }
  const byActor = { recipient: 0, guest: 0 };
  for (const row of actors) if (row.triggeredBy === "recipient" || row.triggeredBy === "guest") byActor[row.triggeredBy] = Number(row.n);
  const shares = EVENT_TYPES.filter((t) => t.startsWith("credential_shared_to_") || t === "credential_added_to_linkedin_profile")
    .map((t) => ({ network: shareNetworkName(t), count: totals[t] ?? 0 }))
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count);
  return {
    range,
    days,
    perDay,
    totals,
    byActor,
    perTemplate: templates.map((t) => ({ groupId: t.groupId, name: t.name, count: Number(t.n) })),
    shares,
  };
}

const NETWORK_NAMES: Record<string, string> = {
  linkedin: "LinkedIn",
  facebook: "Facebook",
  twitter: "X (Twitter)",
  messenger: "Messenger",
  whatsapp: "WhatsApp",
  pinterest: "Pinterest",
  telegram: "Telegram",
  weibo: "Weibo",
};

export function shareNetworkName(type: EventType): string {
  if (type === "credential_added_to_linkedin_profile") return "LinkedIn profile";
  const key = type.replace("credential_shared_to_", "");
  return NETWORK_NAMES[key] ?? key;
}
