import { describe, expect, it } from "vitest";
import { addPeriod, isCalendarDate, monthOf, todayUtc } from "./dates";

describe("isCalendarDate", () => {
  it.each([
    ["2026-02-28", true],
    ["2028-02-29", true],
    ["2026-02-29", false],
    ["2026-02-30", false],
    ["2026-04-31", false],
    ["2026-1-5", false],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["0000-01-01", false],
    ["2026-01-05T00:00:00Z", false],
    [" 2026-01-05", false],
  ])("%s → %s", (value, ok) => expect(isCalendarDate(value)).toBe(ok));
});

describe("addPeriod", () => {
  it("adds days across months and years", () => {
    expect(addPeriod("2026-12-30", 3, "day")).toBe("2027-01-02");
  });
  it("clamps month ends", () => {
    expect(addPeriod("2026-01-31", 1, "month")).toBe("2026-02-28");
    expect(addPeriod("2028-02-29", 1, "year")).toBe("2029-02-28");
    expect(addPeriod("2026-11-15", 14, "month")).toBe("2028-01-15");
  });
});

describe("UTC helpers", () => {
  it("never shift with the local time zone", () => {
    const late = new Date("2026-03-31T23:30:00Z");
    expect(todayUtc(late)).toBe("2026-03-31");
    expect(monthOf(late)).toBe("2026-03");
  });
});
