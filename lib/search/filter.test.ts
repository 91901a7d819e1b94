import { describe, expect, it } from "vitest";
import { canonicalFilter, parseFilter, type FilterNode } from "./filter";

function tree(raw: unknown): FilterNode {
  const parsed = parseFilter(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.tree;
}

function issues(raw: unknown): { path: string; message: string }[] {
  const parsed = parseFilter(raw);
  if (parsed.ok) throw new Error("expected the filter to be rejected");
  return parsed.issues.map((i) => ({ path: i.path.join("/"), message: i.message }));
}

describe("parseFilter", () => {
  it("reads a literal as equals and keys at one level as AND", () => {
    expect(tree({ status: "issued", issueDate: { gte: "2026-01-01", lt: "2026-02-01" } })).toEqual({
      type: "and",
      children: [
        { type: "condition", condition: { field: "status", op: "equals", value: "issued" } },
        {
          type: "and",
          children: [
            { type: "condition", condition: { field: "issueDate", op: "gte", value: "2026-01-01" } },
            { type: "condition", condition: { field: "issueDate", op: "lt", value: "2026-02-01" } },
          ],
        },
      ],
    });
  });

  it("folds recipient text and reads nested recipient fields like dotted ones", () => {
    const nested = tree({ recipient: { name: { contains: "ZOË" } } });
    const dotted = tree({ "recipient.name": { contains: "zoë" } });
    expect(nested).toEqual(dotted);
    expect(nested).toEqual({ type: "condition", condition: { field: "recipient.name", op: "contains", value: "zoë" } });
  });

  it("reads NOT with an array as none-of", () => {
    expect(tree({ NOT: [{ status: "draft" }, { status: "expired" }] })).toEqual({
      type: "not",
      child: {
        type: "or",
        children: [
          { type: "condition", condition: { field: "status", op: "equals", value: "draft" } },
          { type: "condition", condition: { field: "status", op: "equals", value: "expired" } },
        ],
      },
    });
  });

  it("accepts null for nullable fields only", () => {
    expect(tree({ expiryDate: null })).toEqual({ type: "condition", condition: { field: "expiryDate", op: "equals", value: null } });
    expect(tree({ recipientId: { not: null } })).toEqual({
      type: "condition",
      condition: { field: "recipientId", op: "not", value: null },
    });
    expect(issues({ issueDate: null })).toEqual([{ path: "issueDate", message: "cannot be null: every credential has an issueDate" }]);
  });

  it("names every mistake with its path", () => {
    const found = issues({
      AND: [{ status: "issued" }, { issueDate: { gt: 5 } }],
      recipient: { name: { gt: "x" }, phone: "1" },
      id: { contains: "x" },
      expiryDate: { in: ["2026-01-01", null, "2026-02-30"] },
      createdAt: { lt: "2026-01-01T10:00:00" },
      status: { equals: "lost" },
      nope: 1,
      OR: {},
    });
    expect(found.map((f) => f.path)).toEqual([
      "AND/1/issueDate/gt",
      "recipient/name/gt",
      "recipient/phone",
      "id/contains",
      "expiryDate/in/1",
      "expiryDate/in/2",
      "createdAt/lt",
      "status/equals",
      "nope",
      "OR",
    ]);
    expect(found[4]!.message).toContain(`{"equals": null}`);
    expect(found[6]!.message).toContain("time zone");
  });

  it("rejects unknown operators, empty operator objects and arrays as values", () => {
    expect(issues({ issueDate: { after: "2026-01-01" } })[0]!.path).toBe("issueDate/after");
    expect(issues({ issueDate: {} })[0]!.message).toContain("at least one operator");
    expect(issues({ groupId: ["a", "b"] })[0]!.message).toContain(`"in"`);
    expect(issues({ status: { in: "issued" } })[0]!.message).toContain("array");
  });

  it("rejects a filter that is not an object", () => {
    expect(issues([])).toEqual([{ path: "", message: "must be a filter object, got an array" }]);
    expect(issues("status")).toEqual([{ path: "", message: "must be a filter object, got a string" }]);
  });

  it("gives equal canonical text to filters that differ only in spelling or key order", () => {
    const a = tree({ status: "issued", recipient: { email: "A@x.org" } });
    const b = tree({ "recipient.email": "a@x.org", status: "issued" });
    const c = tree({ AND: [{ status: "issued", "recipient.email": "a@x.org" }] });
    expect(canonicalFilter(a)).toBe(canonicalFilter(b));
    expect(canonicalFilter(a)).toBe(canonicalFilter(c));
    expect(canonicalFilter(a)).not.toBe(canonicalFilter(tree({ status: "draft", recipient: { email: "a@x.org" } })));
  });
});
