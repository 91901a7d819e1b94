import { describe, expect, it } from "vitest";
import { filterBranches } from "./branches";
import { parseFilter, type FilterNode } from "./filter";

const tree = (raw: unknown): FilterNode => {
  const parsed = parseFilter(raw);
  if (!parsed.ok) throw new Error("bad filter");
  return parsed.tree;
};
const eq = (field: string, value: string) => ({ type: "condition", condition: { field, op: "equals", value } });

describe("filterBranches", () => {
  it("splits an OR of equalities on one identifier, and an `in`", () => {
    expect(filterBranches(tree({ OR: [{ groupId: "a" }, { groupId: "b" }] }))).toEqual([eq("groupId", "a"), eq("groupId", "b")]);
    expect(filterBranches(tree({ groupId: { in: ["a", "b", "a"] } }))).toEqual([eq("groupId", "a"), eq("groupId", "b")]);
  });

  it("keeps the rest of a conjunction in every branch", () => {
    const branches = filterBranches(tree({ status: "issued", OR: [{ groupId: "a" }, { groupId: "b" }] }));
    expect(branches).toEqual([
      { type: "and", children: [{ type: "condition", condition: { field: "status", op: "equals", value: "issued" } }, eq("groupId", "a")] },
      { type: "and", children: [{ type: "condition", condition: { field: "status", op: "equals", value: "issued" } }, eq("groupId", "b")] },
    ]);
  });

  it("leaves every other shape alone", () => {
    for (const raw of [
      { groupId: "a" },
      { OR: [{ groupId: "a" }, { recipientId: "b" }] },
      { OR: [{ groupId: "a" }, { status: "draft" }] },
      { OR: [{ groupId: "a" }, { groupId: { not: "b" } }] },
      { status: { in: ["draft", "issued"] } },
      { groupId: { in: ["1", "2", "3", "4", "5", "6", "7", "8", "9"] } },
      { NOT: { OR: [{ groupId: "a" }, { groupId: "b" }] } },
    ]) {
      expect(filterBranches(tree(raw)), JSON.stringify(raw)).toBeNull();
    }
  });
});
