// Checking every record of a file before anything is written: each becomes the API's create body
// (mapping.ts) and goes through the API's own schema, CreateCredentialBody, so a row is refused for
// exactly the reasons, and with exactly the messages, that the API would give. Each problem is then
// traced back to the CSV column it came from, so the report can say "line 7, E-mail: must be a valid
// email address".
import { ApiError, type ErrorDetail } from "../core/errors";
import { safeParseWithDetails } from "../core/validation";
import { todayUtc } from "../core/dates";
import { CreateCredentialBody, type CreateCredentialInput } from "../credentials/schema";
import { checkDateOrder } from "../credentials/service";
import type { CsvRecord } from "./csv";
import { columnName, credentialBodyFor, type ColumnMapping, type TargetField } from "./mapping";

/** One reason a row cannot be imported. `column` is the CSV column's name, null for the row as a whole. */
export type RowProblem = { column: string | null; field: string | null; message: string };

export type CheckedRow =
  | { line: number; valid: true; input: CreateCredentialInput }
  | { line: number; valid: false; input: Record<string, unknown>; problems: RowProblem[] };

/** The mapped field a validation path belongs to: `recipient.email` → itself, `customAttributes.custom.grade` → `custom.grade`. */
function fieldOfPath(path: string): TargetField | null {
  if (path === "recipient.name" || path === "recipient.email" || path === "issueDate" || path === "expiryDate") return path;
  if (path.startsWith("customAttributes.custom.")) return path.slice("customAttributes.".length) as TargetField;
  return null;
}

function problemsFrom(details: ErrorDetail[], header: readonly string[], mapping: ColumnMapping): RowProblem[] {
  return details.map((d) => {
    const field = fieldOfPath(d.path);
    const column = field === null ? undefined : mapping[field];
    // Only a path that names no mapped column (the template, the whole body) keeps its API path.
    return column === undefined
      ? { column: null, field: field ?? d.path, message: field ? d.message : `${d.path}: ${d.message}` }
      : { column: columnName(header, column), field, message: d.message };
  });
}

/** One record, checked as the API would check the request it becomes. */
export function checkRecord(record: CsvRecord, header: readonly string[], mapping: ColumnMapping, groupId: string): CheckedRow {
  const input = credentialBodyFor(record.fields, mapping, groupId);
  if (record.fields.length !== header.length) {
    // A missing or extra field shifts every value after it into the wrong column: never guess.
    const message = `has ${record.fields.length} field${record.fields.length === 1 ? "" : "s"} but the header has ${header.length}; check this line's separators and quotes`;
    return { line: record.line, valid: false, input, problems: [{ column: null, field: null, message }] };
  }
  const parsed = safeParseWithDetails(CreateCredentialBody, input);
  if (!parsed.ok) return { line: record.line, valid: false, input, problems: problemsFrom(parsed.details, header, mapping) };
  try {
    checkDateOrder(parsed.data.issueDate ?? todayUtc(), parsed.data.expiryDate ?? null);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.details) throw error;
    return { line: record.line, valid: false, input, problems: problemsFrom(error.details, header, mapping) };
  }
  return { line: record.line, valid: true, input: parsed.data };
}

export function checkRecords(
  records: readonly CsvRecord[],
  header: readonly string[],
  mapping: ColumnMapping,
  groupId: string,
): CheckedRow[] {
  return records.map((record) => checkRecord(record, header, mapping, groupId));
}

/** A problem as one line of text, the way the report and the tests read it. */
export function describeProblem(line: number, problem: RowProblem): string {
  return problem.column === null ? `line ${line}: ${problem.message}` : `line ${line}, ${problem.column}: ${problem.message}`;
}
