// The period an analytics page or export covers: a preset (the last 7, 30 or 90 days, or all time) or a
// custom pair of calendar dates, both ends included. Days are UTC days: an organization has no time
// zone setting, and the page says so.
import { addPeriod, isCalendarDate, todayUtc } from "../core/dates";

export const PERIOD_PRESETS = ["7d", "30d", "90d", "all"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** `from` null: all time (from the organization's first issued credential). */
export type Period = { preset: PeriodPreset | "custom"; from: string | null; to: string };

export type PeriodInput = { period?: string; from?: string; to?: string };

/** A field of the period form with a bad value, and why. */
export type PeriodError = { field: "from" | "to"; message: string };

const PRESET_DAYS: Record<Exclude<PeriodPreset, "all">, number> = { "7d": 7, "30d": 30, "90d": 90 };

export const PERIOD_LABELS: Record<PeriodPreset | "custom", string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  all: "All time",
  custom: "Custom",
};

/**
 * The period the query asks for: custom when `from` or `to` is given (both must be real dates, `from`
 * not after `to`), otherwise the preset named by `period`, the last 30 days when none is.
 */
export function parsePeriod(input: PeriodInput, now: Date = new Date()): { period: Period } | { errors: PeriodError[] } {
  const today = todayUtc(now);
  if (input.from || input.to) {
    const errors: PeriodError[] = [];
    if (!input.from || !isCalendarDate(input.from)) errors.push({ field: "from", message: "Enter a start date (YYYY-MM-DD)." });
    if (!input.to || !isCalendarDate(input.to)) errors.push({ field: "to", message: "Enter an end date (YYYY-MM-DD)." });
    if (errors.length === 0 && input.from! > input.to!)
      errors.push({ field: "from", message: "The start date must not be after the end date." });
    return errors.length > 0 ? { errors } : { period: { preset: "custom", from: input.from!, to: input.to! } };
  }
  const preset = (PERIOD_PRESETS as readonly string[]).includes(input.period ?? "") ? (input.period as PeriodPreset) : "30d";
  if (preset === "all") return { period: { preset, from: null, to: today } };
  return { period: { preset, from: addPeriod(today, -(PRESET_DAYS[preset] - 1), "day"), to: today } };
}

/** The first moment in the period and the first one after it (UTC). */
export function periodBounds(period: Period): { start: Date | null; end: Date } {
  return {
    start: period.from === null ? null : new Date(`${period.from}T00:00:00.000Z`),
    end: new Date(`${addPeriod(period.to, 1, "day")}T00:00:00.000Z`),
  };
}

/** The period in a file name: `2026-05-01_2026-05-30`, or `all-time_to_2026-05-30`. */
export function periodSlug(period: Period): string {
  return period.from === null ? `all-time_to_${period.to}` : `${period.from}_${period.to}`;
}

/** The period's query string, for links and the export (custom dates or the preset). */
export function periodQuery(period: Period): string {
  return period.preset === "custom" ? `from=${period.from}&to=${period.to}` : `period=${period.preset}`;
}
