// ISO 8601 date-times in filters. Stored timestamps have millisecond precision; a filter value may be
// finer (Python's isoformat() writes microseconds), so an instant keeps whether it falls exactly on a
// millisecond, and comparisons with one that does not are rewritten exactly (see `instantBounds`).
import { isCalendarDate } from "../core/dates";

export type Instant = {
  /** Milliseconds since the epoch, rounded down. */
  ms: number;
  /** True when the value has no part finer than a millisecond. */
  exact: boolean;
};

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** The instant a date-time names, or null unless it is ISO 8601 with a time and a zone. */
export function parseInstant(text: string): Instant | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [date, hh, mi, ss = "00", fraction = "", zone] = m.slice(1) as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ];
  if (!isCalendarDate(date)) return null;
  const [hour, minute, second] = [Number(hh), Number(mi), Number(ss)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    const digits = zone.replace(":", "");
    const [oh, om] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, "0")));
  const ms = utc.getTime() - offsetMinutes * 60_000;
  return { ms, exact: /^0*$/.test(fraction.slice(3)) };
}

/**
 * A comparison with an instant, as a comparison with whole milliseconds that selects exactly the same
 * stored (whole-millisecond) values: for t = 5.0004 ms, `> t` and `>= t` are `> 5`, `< t` and `<= t`
 * are `<= 5`. Null means the comparison holds for no stored value (`equals` a non-whole instant).
 */
export function instantBounds(
  op: "equals" | "gt" | "gte" | "lt" | "lte",
  value: Instant,
): { op: "=" | ">" | ">=" | "<" | "<="; ms: number } | null {
  const SQL = { equals: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  if (value.exact) return { op: SQL[op], ms: value.ms };
  switch (op) {
    case "equals":
      return null;
    case "gt":
    case "gte":
      return { op: ">", ms: value.ms };
    case "lt":
    case "lte":
      return { op: "<=", ms: value.ms };
  }
}
