// Looks through a parsed JSON value for what a check flags, reporting each finding with its path.
// Iterative, and each node points at its parent instead of carrying its whole path: a body may nest
// thousands of levels deep within the size limit, which would overflow a recursive walk or make
// copied paths quadratic.

export type JsonPath = (string | number)[];
export type JsonFinding = { path: JsonPath; message: string };

/**
 * What `check` says of one member: a message, or null when it is fine. `atParent` reports the finding
 * at the containing object's path (for a field name that cannot be printed) and skips the member.
 */
export type JsonCheck = (key: string | null, value: unknown) => { message: string; atParent?: boolean } | null;

type Node = { value: unknown; key: string | number | null; parent: Node | null };

function pathOf(node: Node | null): JsonPath {
  const path: JsonPath = [];
  for (let n = node; n && n.key !== null; n = n.parent) path.push(n.key);
  return path.reverse();
}

export function findInJson(root: unknown, check: JsonCheck, limit = Infinity): JsonFinding[] {
  const found: JsonFinding[] = [];
  const stack: Node[] = [{ value: root, key: null, parent: null }];
  while (stack.length && found.length < limit) {
    const node = stack.pop()!;
    const verdict = check(typeof node.key === "string" ? node.key : null, node.value);
    if (verdict) {
      found.push({ path: pathOf(verdict.atParent ? node.parent : node), message: verdict.message });
      if (verdict.atParent) continue;
    }
    const value = node.value;
    if (typeof value !== "object" || value === null) continue;
    const entries = Object.entries(value as Record<string, unknown>);
    const isArray = Array.isArray(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      stack.push({ value: child, key: isArray ? Number(key) : key, parent: node });
    }
  }
  return found;
}
