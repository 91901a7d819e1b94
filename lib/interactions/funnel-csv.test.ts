import { describe, expect, it } from "vitest";
import { parseCsv } from "../imports/csv";
import { funnelCsv, funnelCsvFilename } from "./funnel-csv";
import type { Funnel, FunnelCounts } from "./funnel";

const counts = (issued: number): FunnelCounts => ({
  credentials: { issued, delivered: issued - 1, opened: 2, shared: 1, verified: 1 },
  recipients: { issued: issued - 1, delivered: issued - 2, opened: 2, shared: 1, verified: 1 },
  email: { delivered: issued - 1, bounced: 1, failed: 0, waiting: 0, notSent: 0 },
});

const funnel: Funnel = {
  period: { preset: "custom", from: "2026-05-01", to: "2026-05-02" },
  from: "2026-05-01",
  overall: counts(5),
  perTemplate: [{ groupId: "grp_1", name: '=HYPERLINK("https://evil.example","x"), course', ...counts(5) }],
  bucket: "day",
  series: [
    { start: "2026-05-01", credentials: { issued: 3, delivered: 2, opened: 1, shared: 0, verified: 0 } },
    { start: "2026-05-02", credentials: { issued: 2, delivered: 2, opened: 1, shared: 1, verified: 1 } },
  ],
};

describe("funnelCsv", () => {
  it("one rectangular table: all templates, each template, then the series; user text made safe", () => {
    const table = parseCsv(funnelCsv(funnel));
    expect(table.header.slice(0, 4)).toEqual(["Row", "Template or period start", "Issued (credentials)", "Email delivered (credentials)"]);
    const rows = table.records.map((r) => r.fields);
    expect(rows.every((r) => r.length === table.header.length)).toBe(true);
    expect(rows[0]!.slice(0, 3)).toEqual(["All templates", "", "5"]);
    expect(rows[1]![1]).toBe('\'=HYPERLINK("https://evil.example","x"), course');
    expect(rows[2]!.slice(0, 4)).toEqual(["Day", "2026-05-01", "3", "2"]);
  });

  it("the file is named after the organization and the period", () => {
    expect(funnelCsvFilename("acme-training", funnel)).toBe("analytics-acme-training-2026-05-01_2026-05-02.csv");
    expect(funnelCsvFilename('a"b\r\nc', { ...funnel, period: { preset: "all", from: null, to: "2026-05-02" } })).toBe(
      "analytics-a-b-c-all-time_to_2026-05-02.csv",
    );
  });
});
