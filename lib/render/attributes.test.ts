import { describe, expect, it } from "vitest";
import { DesignDocument } from "./document";
import { formatDate, resolveAttributeValues, sampleAttributeValues, substitute } from "./attributes";

const opts = { locale: "en-US", dateStyle: "long" as const };

describe("substitute", () => {
  it("replaces builtin and custom placeholders", () => {
    const values = { "recipient.name": "Alex Morgan", "group.name": "Data", "custom.grade": "A+" };
    expect(substitute("[recipient.name] passed [group.name] with [custom.grade]", values, opts)).toBe("Alex Morgan passed Data with A+");
  });

  it("renders unknown, missing and null attributes as empty text, never the raw tag", () => {
    const values = { "recipient.name": "Alex", "credential.expiryDate": null, "custom.grade": null };
    const out = substitute("Hi [recipient.name][custom.missing]|[credential.expiryDate]|[custom.grade]|[foo.bar]", values, opts);
    expect(out).toBe("Hi Alex|||");
    expect(out).not.toContain("[");
  });

  it("keeps non-placeholder brackets literal", () => {
    expect(substitute("Item [1] and [ABC]", {}, opts)).toBe("Item [1] and [ABC]");
  });

  it("substitutes once: a value that looks like a placeholder stays as typed", () => {
    expect(substitute("[recipient.name]", { "recipient.name": "[group.name]", "group.name": "X" }, opts)).toBe("[group.name]");
  });

  it("flattens line breaks and control characters in values", () => {
    expect(substitute("[recipient.name]", { "recipient.name": "Alex\nMorgan\u0007" }, opts)).toBe("Alex Morgan");
  });

  it("formats dates in the document's locale and style", () => {
    const values = { "credential.issueDate": "2026-01-15" };
    expect(substitute("[credential.issueDate]", values, opts)).toBe("January 15, 2026");
    expect(substitute("[credential.issueDate]", values, { locale: "de-DE", dateStyle: "long" })).toBe("15. Januar 2026");
    expect(substitute("[credential.issueDate]", values, { locale: "en-GB", dateStyle: "medium" })).toBe("15 Jan 2026");
    expect(substitute("[credential.issueDate]", values, { locale: "ja-JP", dateStyle: "long" })).toBe("2026年1月15日");
    expect(substitute("[credential.issueDate]", values, { locale: "en-US", dateStyle: "iso" })).toBe("2026-01-15");
  });
});

describe("formatDate", () => {
  it("formats in UTC, so the calendar date never shifts with the server's zone", () => {
    // Midnight UTC on the 1st would be the 31st in America: UTC formatting keeps the 1st.
    expect(formatDate("2026-03-01", "en-US", "short")).toBe("3/1/26");
    expect(formatDate("2026-12-31T23:59:59Z", "en-US", "long")).toBe("December 31, 2026");
  });

  it("returns text that is not a valid date unchanged", () => {
    expect(formatDate("soon", "en-US", "long")).toBe("soon");
    expect(formatDate("2026-02-30", "en-US", "long")).toBe("2026-02-30");
  });
});

describe("resolveAttributeValues", () => {
  it("lists the displayed value of every attribute a document uses", () => {
    const doc = DesignDocument.parse({
      version: 1,
      canvas: { size: "A4", orientation: "landscape" },
      elements: [
        { type: "text", x: 0, y: 0, width: 100, height: 20, text: "[recipient.name] [credential.issueDate]", font: {} },
        { type: "text", x: 0, y: 30, width: 100, height: 20, text: "[custom.track]", font: {} },
      ],
    });
    const { attributes, texts } = resolveAttributeValues(doc, { "recipient.name": "Li Na", "credential.issueDate": "2026-01-15" });
    expect(attributes).toEqual({ "recipient.name": "Li Na", "credential.issueDate": "January 15, 2026", "custom.track": "" });
    expect(texts.get(0)).toBe("Li Na January 15, 2026");
    expect(texts.get(1)).toBe("");
  });
});

describe("sampleAttributeValues", () => {
  it("gives fixed, complete sample values", () => {
    const a = sampleAttributeValues("certificate");
    expect(a).toEqual(sampleAttributeValues("certificate"));
    expect(a["recipient.name"]).toBe("Alex Morgan");
    expect(a["group.name"]).toBe("Advanced Data Analysis");
    expect(a["credential.issueDate"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(a["credential.url"]).toMatch(/^https:\/\//);
    expect(sampleAttributeValues("badge", { attributes: ["custom.skill_level"] })["custom.skill_level"]).toBe("Skill Level");
    expect(sampleAttributeValues("badge", { walletUrl: "https://w.example/" })["credential.url"]).toBe(
      "https://w.example/credentials/00000000-0000-4000-8000-000000000000",
    );
  });
});
