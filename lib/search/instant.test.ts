import { describe, expect, it } from "vitest";
import { instantBounds, parseInstant } from "./instant";

describe("parseInstant", () => {
  it("reads ISO 8601 date-times with a zone", () => {
    expect(parseInstant("2026-01-31T09:30:00Z")).toEqual({ ms: Date.parse("2026-01-31T09:30:00Z"), exact: true });
    expect(parseInstant("2026-01-31T09:30Z")).toEqual({ ms: Date.parse("2026-01-31T09:30:00Z"), exact: true });
    expect(parseInstant("2026-01-31T11:30:00.250+02:00")).toEqual({ ms: Date.parse("2026-01-31T09:30:00.250Z"), exact: true });
    expect(parseInstant("2026-01-31T09:30:00.123456-0100")).toEqual({ ms: Date.parse("2026-01-31T10:30:00.123Z"), exact: false });
    expect(parseInstant("2026-01-31T09:30:00.123000Z")).toEqual({ ms: Date.parse("2026-01-31T09:30:00.123Z"), exact: true });
  });

  it("rejects anything without a time, a zone or a real calendar date", () => {
    for (const text of [
      "2026-01-31",
      "2026-01-31T09:30:00",
      "2026-02-30T00:00:00Z",
      "2026-01-31T24:00:00Z",
      "2026-01-31 09:30:00Z",
      "1700000000",
      "2026-01-31T09:30:00+25:00",
    ]) {
      expect(parseInstant(text), text).toBeNull();
    }
  });
});

describe("instantBounds", () => {
  const fine = { ms: 5, exact: false }; // 5.0004 ms
  it("selects the same whole-millisecond values as the exact comparison", () => {
    const stored = [3, 4, 5, 6, 7];
    const exact = 5.0004;
    const holds = (op: "gt" | "gte" | "lt" | "lte", t: number) => ({ gt: t > exact, gte: t >= exact, lt: t < exact, lte: t <= exact })[op];
    for (const op of ["gt", "gte", "lt", "lte"] as const) {
      const bound = instantBounds(op, fine)!;
      const viaBound = stored.filter(
        (t) => ({ ">": t > bound.ms, ">=": t >= bound.ms, "<": t < bound.ms, "<=": t <= bound.ms, "=": t === bound.ms })[bound.op],
      );
      expect(viaBound, op).toEqual(stored.filter((t) => holds(op, t)));
    }
    expect(instantBounds("equals", fine)).toBeNull();
    expect(instantBounds("gte", { ms: 5, exact: true })).toEqual({ op: ">=", ms: 5 });
  });
});
