// Calendar dates as `YYYY-MM-DD` strings (UTC). Strings compare correctly, store the same on both
// databases, and never shift with a time zone.
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date in YYYY-MM-DD form (`2026-02-30` and `2026-1-5` are not). */
export function isCalendarDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last date a credential can carry: dates are four-digit years. */
export const LAST_DATE = "9999-12-31";

/** False for a date computed past LAST_DATE (it has a five-digit or signed year). */
export function withinDateRange(date: string): boolean {
  return DATE_PATTERN.test(date);
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export type PeriodUnit = "day" | "month" | "year";

/** `date` plus `amount` units; month and year steps clamp to the month's last day (Jan 31 + 1 month = Feb 28). */
export function addPeriod(date: string, amount: number, unit: PeriodUnit): string {
  const m = DATE_PATTERN.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (unit === "day") return new Date(Date.UTC(y, mo - 1, d + amount)).toISOString().slice(0, 10);
  const totalMonths = y * 12 + (mo - 1) + (unit === "year" ? amount * 12 : amount);
  const ty = Math.floor(totalMonths / 12);
  const tm = (totalMonths % 12) + 1;
  const td = Math.min(d, daysInMonth(ty, tm));
  return `${String(ty).padStart(4, "0")}-${String(tm).padStart(2, "0")}-${String(td).padStart(2, "0")}`;
}

/** `YYYY-MM` of a moment, UTC: the calendar month a quota counts in. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}
