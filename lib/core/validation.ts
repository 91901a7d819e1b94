// zod failures → the contract's `details`: one entry per bad field, with a readable path
// (`recipient.email`, `designIds[0]`, `filter.AND[1].issueDate.gt`).
import { z } from "zod";
import type { ErrorDetail } from "./errors";

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  const rest = formatPath(path);
  if (!prefix) return rest;
  if (!rest) return prefix;
  return rest.startsWith("[") ? prefix + rest : `${prefix}.${rest}`;
}

// Messages that read well next to a field name, instead of zod's generic "Invalid input".
const errorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value")) return "is required";
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return "is required";
    if (issue.input === null) return `must be ${article(issue.expected)}, not null`;
    // JSON's 1e400 parses to Infinity, which zod counts as not a number.
    if (typeof issue.input === "number" && !Number.isFinite(issue.input)) return "must be a finite number";
    return `must be ${article(issue.expected)}, got ${describe(issue.input)}`;
  }
  if (issue.code === "invalid_value") {
    return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (issue.code === "invalid_union" && "discriminator" in issue && issue.discriminator) {
    return `has an unknown "${String(issue.discriminator)}"`;
  }
  return undefined;
};

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describe(input: unknown): string {
  if (Array.isArray(input)) return "an array";
  return typeof input === "object" ? "an object" : typeof input;
}

export function zodDetails(error: z.ZodError, prefix = ""): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // One mistake can break several checks with the same message (2^53 is neither a safe integer nor
  // at most 100); it is reported once.
  const add = (detail: ErrorDetail) => {
    if (!details.some((d) => d.path === detail.path && d.message === detail.message)) details.push(detail);
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add({ path: joinPath(prefix, [...issue.path, key]), message: "is not a known field" });
    } else if (issue.code === "invalid_key") {
      // A record's key that its key schema refused: that schema's own message says what a key must
      // look like; zod's summary ("Invalid key in record") does not.
      add({ path: joinPath(prefix, issue.path), message: issue.issues[0]?.message ?? issue.message });
    } else {
      add({ path: joinPath(prefix, issue.path), message: issue.message });
    }
  }
  return details;
}

export function safeParseWithDetails<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix = "",
): { ok: true; data: z.output<S> } | { ok: false; details: ErrorDetail[] } {
  const result = schema.safeParse(input, { error: errorMap });
  return result.success ? { ok: true, data: result.data } : { ok: false, details: zodDetails(result.error, prefix) };
}
