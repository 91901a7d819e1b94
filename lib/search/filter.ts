// The search request's `filter` (docs/api.md, Search) → a typed tree, with one `validation_error`
// detail per mistake naming its exact path (`filter.AND[1].issueDate.gt`). Only the tree is ever turned
// into a query. Semantics are in README.md beside this file.
import { unicodeProblem } from "../core/text";
import { isCalendarDate } from "../core/dates";
import { CREDENTIAL_STATUSES } from "../credentials/schema";
import { normalizeName } from "../recipients/service";
import {
  FIELD_KINDS,
  FIELD_NAMES,
  FIELDS,
  isFieldName,
  isOperator,
  operatorsOf,
  RECIPIENT_SUBFIELDS,
  type FieldKind,
  type FieldName,
} from "./fields";
import { parseInstant, type Instant } from "./instant";

/** A field's value in a condition: text is already case-folded, date-times are instants. */
export type Scalar = string | Instant;

export type Condition =
  | { field: FieldName; op: "equals" | "not"; value: Scalar | null }
  | { field: FieldName; op: "in" | "notIn"; values: Scalar[] }
  | { field: FieldName; op: "contains" | "startsWith" | "endsWith"; value: string }
  | { field: FieldName; op: "gt" | "gte" | "lt" | "lte"; value: Scalar };

export type FilterNode =
  | { type: "and"; children: FilterNode[] }
  | { type: "or"; children: FilterNode[] }
  | { type: "not"; child: FilterNode }
  | { type: "condition"; condition: Condition };

export const MATCH_ALL: FilterNode = { type: "and", children: [] };

const MAX_LIST = 1000;
const MAX_TEXT = 1000;
const MAX_DEPTH = 32;

const KIND_FORMAT: Record<FieldKind, string> = {
  identifier: "a string",
  text: "a string",
  status: `one of ${CREDENTIAL_STATUSES.join(", ")}`,
  date: "a date in YYYY-MM-DD form",
  dateTime: "an ISO 8601 date-time with a time zone, like 2026-01-31T09:30:00Z",
};

/** A mistake in the filter, at a path relative to it (`["AND", 1, "issueDate", "gt"]`). */
export type FilterIssue = { path: (string | number)[]; message: string };

type Path = (string | number)[];
const child = (path: Path, key: string): Path => [...path, key];
const item = (path: Path, index: number): Path => [...path, index];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

class FilterParser {
  readonly issues: FilterIssue[] = [];

  private fail(path: Path, message: string): null {
    this.issues.push({ path, message });
    return null;
  }

  /** One level: an object whose keys are fields or AND / OR / NOT, combined with AND. */
  level(raw: unknown, path: Path, depth: number): FilterNode | null {
    if (!isPlainObject(raw)) return this.fail(path, `must be a filter object, got ${typeName(raw)}`);
    if (depth > MAX_DEPTH) return this.fail(path, `is nested too deeply (at most ${MAX_DEPTH} levels)`);
    const children: (FilterNode | null)[] = [];
    for (const [key, value] of Object.entries(raw)) {
      const at = child(path, key);
      if (key === "AND" || key === "OR") {
        if (!Array.isArray(value)) {
          children.push(this.fail(at, `must be an array of filter objects, got ${typeName(value)}`));
          continue;
        }
        const parts = this.list(value, at, depth);
        children.push(parts && { type: key === "AND" ? "and" : "or", children: parts });
      } else if (key === "NOT") {
        // An array means "none of these matches".
        const inner = Array.isArray(value)
          ? ((parts) => parts && ({ type: "or", children: parts } as FilterNode))(this.list(value, at, depth))
          : isPlainObject(value)
            ? this.level(value, at, depth + 1)
            : this.fail(at, `must be a filter object or an array of them, got ${typeName(value)}`);
        children.push(inner && { type: "not", child: inner });
      } else if (key === "recipient") {
        children.push(this.recipient(value, at));
      } else if (isFieldName(key)) {
        children.push(this.field(key, value, at));
      } else {
        children.push(this.fail(at, `is not a known field; fields are ${FIELD_NAMES.join(", ")} (and AND, OR, NOT)`));
      }
    }
    if (children.some((c) => c === null)) return null;
    const nodes = children as FilterNode[];
    return nodes.length === 1 ? nodes[0]! : { type: "and", children: nodes };
  }

  private list(raw: unknown[], path: Path, depth: number): FilterNode[] | null {
    if (raw.length > MAX_LIST) return this.fail(path, `must have at most ${MAX_LIST} filter objects`);
    const parts = raw.map((value, i) => this.level(value, item(path, i), depth + 1));
    return parts.some((p) => p === null) ? null : (parts as FilterNode[]);
  }

  private recipient(raw: unknown, path: Path): FilterNode | null {
    if (!isPlainObject(raw)) {
      return this.fail(
        path,
        `must be an object of recipient fields (name, email), got ${typeName(raw)}; to find credentials without a recipient use {"recipientId": null}`,
      );
    }
    const children: (FilterNode | null)[] = Object.entries(raw).map(([key, value]) =>
      Object.prototype.hasOwnProperty.call(RECIPIENT_SUBFIELDS, key)
        ? this.field(RECIPIENT_SUBFIELDS[key as keyof typeof RECIPIENT_SUBFIELDS], value, child(path, key))
        : this.fail(child(path, key), "is not a known recipient field; recipient fields are name and email"),
    );
    if (children.some((c) => c === null)) return null;
    const nodes = children as FilterNode[];
    return nodes.length === 1 ? nodes[0]! : { type: "and", children: nodes };
  }

  /** A field's value: a literal (equals), null (equals null) or an object of operators, all of which hold. */
  private field(field: FieldName, raw: unknown, path: Path): FilterNode | null {
    if (!isPlainObject(raw)) {
      if (Array.isArray(raw))
        return this.fail(path, `must be a value or an object of operators; to match any of several values use {"in": [...]}`);
      const value = this.nullableScalar(field, raw, path);
      return value === undefined ? null : condition({ field, op: "equals", value });
    }
    const ops = Object.entries(raw);
    if (ops.length === 0) return this.fail(path, `must name at least one operator: ${operatorsOf(field).join(", ")}`);
    const conditions = ops.map(([op, operand]) => this.operator(field, op, operand, child(path, op)));
    if (conditions.some((c) => c === null)) return null;
    const nodes = (conditions as Condition[]).map(condition);
    return nodes.length === 1 ? nodes[0]! : { type: "and", children: nodes };
  }

  private operator(field: FieldName, op: string, operand: unknown, path: Path): Condition | null {
    const allowed = operatorsOf(field);
    if (!isOperator(op)) return this.fail(path, `is not a known operator; ${field} takes ${allowed.join(", ")}`);
    if (!allowed.includes(op)) {
      const kind = FIELD_KINDS[FIELDS[field].kind].describe;
      return this.fail(path, `is not available for ${field} (${kind}); it takes ${allowed.join(", ")}`);
    }
    switch (op) {
      case "equals":
      case "not": {
        const value = this.nullableScalar(field, operand, path);
        return value === undefined ? null : { field, op, value };
      }
      case "in":
      case "notIn": {
        if (!Array.isArray(operand)) return this.fail(path, `must be an array of values, got ${typeName(operand)}`);
        if (operand.length > MAX_LIST) return this.fail(path, `must have at most ${MAX_LIST} values`);
        const values = operand.map((member, i) =>
          member === null ? this.fail(item(path, i), nullInListMessage(field, op)) : this.scalar(field, member, item(path, i)),
        );
        return values.some((v) => v === null) ? null : { field, op, values: values as Scalar[] };
      }
      case "contains":
      case "startsWith":
      case "endsWith": {
        const value = this.scalar(field, operand, path);
        return value === null ? null : { field, op, value: value as string };
      }
      default: {
        const value = this.scalar(field, operand, path);
        return value === null ? null : { field, op, value };
      }
    }
  }

  /** A scalar, or null where the field is nullable; undefined after reporting a mistake. */
  private nullableScalar(field: FieldName, raw: unknown, path: Path): Scalar | null | undefined {
    if (raw !== null) return this.scalar(field, raw, path) ?? undefined;
    if (FIELDS[field].nullable) return null;
    this.fail(path, `cannot be null: every credential has ${withArticle(field)}`);
    return undefined;
  }

  private scalar(field: FieldName, raw: unknown, path: Path): Scalar | null {
    const kind = FIELDS[field].kind;
    if (typeof raw !== "string") return this.fail(path, `must be ${KIND_FORMAT[kind]}, got ${typeName(raw)}`);
    // The dashboard's search box reaches here without the /v1 wrapper's check of every string.
    const textProblem = unicodeProblem(raw);
    if (textProblem) return this.fail(path, textProblem);
    switch (kind) {
      case "identifier":
        // Any string: an id that does not exist simply matches nothing.
        return raw;
      case "text":
        return raw.length <= MAX_TEXT ? normalizeName(raw) : this.fail(path, `must be at most ${MAX_TEXT} characters`);
      case "status":
        return (CREDENTIAL_STATUSES as readonly string[]).includes(raw) ? raw : this.fail(path, `must be ${KIND_FORMAT.status}`);
      case "date":
        return isCalendarDate(raw) ? raw : this.fail(path, `must be a real calendar date in YYYY-MM-DD form`);
      case "dateTime":
        return parseInstant(raw) ?? this.fail(path, `must be ${KIND_FORMAT.dateTime}`);
    }
  }
}

// The spec's limitation: `in` and `notIn` cannot hold null. The message names the way that works.
function nullInListMessage(field: FieldName, op: "in" | "notIn"): string {
  if (!FIELDS[field].nullable)
    return `null is not allowed in ${op}; null is matched with {"equals": null}, but every credential has ${withArticle(field)}`;
  return op === "in"
    ? `null is not allowed in in; use {"equals": null} instead (with OR to combine it with in)`
    : `null is not allowed in notIn; use {"equals": null} inside NOT instead (or {"not": null}), combined with notIn through AND`;
}

function withArticle(field: FieldName): string {
  return `${/^[aeiou]/i.test(field) ? "an" : "a"} ${field}`;
}

function condition(c: Condition): FilterNode {
  return { type: "condition", condition: c };
}

/** The filter's tree, or every mistake in it. Absent and null filters match everything. */
export function parseFilter(raw: unknown): { ok: true; tree: FilterNode } | { ok: false; issues: FilterIssue[] } {
  if (raw === undefined || raw === null) return { ok: true, tree: MATCH_ALL };
  const parser = new FilterParser();
  const tree = parser.level(raw, [], 0);
  return tree && parser.issues.length === 0 ? { ok: true, tree } : { ok: false, issues: parser.issues };
}

/**
 * A stable text for a tree: equal for filters that are written differently but mean the same by
 * construction (dotted or nested recipient fields, key order within a level). Binds cursors to searches.
 */
export function canonicalFilter(node: FilterNode): string {
  switch (node.type) {
    case "and":
    case "or":
      if (node.children.length === 1) return canonicalFilter(node.children[0]!);
      return `${node.type}(${node.children.map(canonicalFilter).sort().join(",")})`;
    case "not":
      return `not(${canonicalFilter(node.child)})`;
    case "condition":
      return JSON.stringify(node.condition);
  }
}
