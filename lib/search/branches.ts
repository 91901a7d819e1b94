// A filter of the shape `rest AND (x = a OR x = b ...)` on an identifier is answered as one small
// query per value, merged: each is a single index range in sort order, where the disjunction as a
// whole made SQLite's planner read and sort every matching row (measured at 1M credentials: the OR of
// two groups took 130-1200 ms as one query, under 1 ms per branch). PostgreSQL gains too.
import type { Condition, FilterNode } from "./filter";
import { FIELDS } from "./fields";

const MAX_BRANCHES = 8;

/** One equality per value when `node` is an `in` or an OR of equalities on one identifier field; else null. */
function identifierAlternatives(node: FilterNode): FilterNode[] | null {
  const equality = (c: Condition): boolean => c.op === "equals" && c.value !== null && FIELDS[c.field].kind === "identifier";
  if (node.type === "condition") {
    const c = node.condition;
    if (c.op !== "in" || FIELDS[c.field].kind !== "identifier" || c.values.length < 2 || c.values.length > MAX_BRANCHES) return null;
    return [...new Set(c.values as string[])].map((value) => ({ type: "condition", condition: { field: c.field, op: "equals", value } }));
  }
  if (node.type !== "or" || node.children.length < 2 || node.children.length > MAX_BRANCHES) return null;
  const conditions = node.children.map((child) => (child.type === "condition" && equality(child.condition) ? child.condition : null));
  if (conditions.some((c) => c === null) || new Set(conditions.map((c) => c!.field)).size !== 1) return null;
  return node.children;
}

/** The filter as alternatives whose union is the filter's matches, or null when it has no such shape. */
export function filterBranches(tree: FilterNode): FilterNode[] | null {
  const whole = identifierAlternatives(tree);
  if (whole) return whole;
  if (tree.type !== "and") return null;
  const index = tree.children.findIndex((child) => identifierAlternatives(child) !== null);
  if (index < 0) return null;
  const rest = tree.children.filter((_, i) => i !== index);
  return identifierAlternatives(tree.children[index]!)!.map((alternative) => ({ type: "and", children: [...rest, alternative] }));
}
