import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatPath, safeParseWithDetails } from "./validation";

describe("formatPath", () => {
  it("joins keys with dots and indexes with brackets", () => {
    expect(formatPath(["filter", "AND", 1, "issueDate", "gt"])).toBe("filter.AND[1].issueDate.gt");
    expect(formatPath(["designIds", 0])).toBe("designIds[0]");
    expect(formatPath([])).toBe("");
  });
});

describe("safeParseWithDetails", () => {
  const schema = z.strictObject({
    name: z.string().min(1),
    recipient: z.strictObject({ email: z.email() }),
    tags: z.array(z.string()).optional(),
  });

  it("names every bad field, unknown keys one by one", () => {
    const result = safeParseWithDetails(schema, { name: 3, recipient: { email: "nope", extra: 1 }, tags: ["a", 2], other: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.details.map((d) => d.path).sort()).toEqual(["name", "other", "recipient.email", "recipient.extra", "tags[1]"].sort());
    expect(result.details.find((d) => d.path === "other")!.message).toBe("is not a known field");
    expect(result.details.find((d) => d.path === "name")!.message).toBe("must be a string, got number");
  });

  it("says a missing field is required", () => {
    const result = safeParseWithDetails(schema, { recipient: { email: "a@b.co" } });
    expect(result).toEqual({ ok: false, details: [{ path: "name", message: "is required" }] });
  });

  it("prefixes paths", () => {
    const result = safeParseWithDetails(z.strictObject({ a: z.string() }), { a: 1 }, "document");
    expect(result.ok === false && result.details[0]!.path).toBe("document.a");
  });
});

describe("messages for numbers JSON cannot hold", () => {
  it("says a number too large for JSON is not finite, rather than 'must be a number, got number'", () => {
    const result = safeParseWithDetails(z.strictObject({ limit: z.number().int() }), JSON.parse('{"limit":1e400}'));
    expect(result).toEqual({ ok: false, details: [{ path: "limit", message: "must be a finite number" }] });
  });
});

describe("a record key its key schema refuses", () => {
  it("carries the key schema's own message, at the key's path", () => {
    const schema = z.record(z.string().regex(/^custom\.[a-z]+$/, "keys must look like custom.<tag>"), z.string());
    expect(safeParseWithDetails(schema, { "custom.two words": "x" })).toEqual({
      ok: false,
      details: [{ path: "custom.two words", message: "keys must look like custom.<tag>" }],
    });
  });
});
