// The import report's warnings: valid rows whose text one of the template's designs cannot draw
// (characters no bundled font has). They do not stop the import (the row is a valid credential), but
// the recipient would get no certificate image for that design, so the report says so before anything
// is issued. Worked out when the report is shown, from the staged rows and the template's designs as
// they are then, and never written anywhere.
import type { CreateCredentialInput } from "../credentials/schema";
import { db } from "../db";
import { undrawableTextChecker } from "../credentials/undrawable-text";
import { columnName, type TargetField } from "./mapping";
import { getImportJob } from "./service";

/** One design of one row that cannot draw the row's text. `column` is the CSV column the characters came from, null when none of the file's did. */
export type UndrawableImportRow = { line: number; column: string | null; designName: string; characters: string[]; message: string };

export type ImportTextWarnings = {
  /** Rows with at least one warning. */
  rowCount: number;
  /** One entry per row and design, in file order, at most `limit`. */
  rows: UndrawableImportRow[];
};

// Attributes a design draws, by the import field they are read from.
const FIELD_OF_ATTRIBUTE: Record<string, TargetField> = {
  "recipient.name": "recipient.name",
  "credential.issueDate": "issueDate",
  "credential.expiryDate": "expiryDate",
};

function fieldOf(attribute: string): TargetField | null {
  if (attribute.startsWith("custom.")) return attribute as TargetField;
  return FIELD_OF_ATTRIBUTE[attribute] ?? null;
}

/** The warnings of a checked import's valid rows (its `pending` rows). */
export async function importTextWarnings(
  organization: { id: string; name: string },
  id: string,
  limit = 1000,
): Promise<ImportTextWarnings> {
  const job = await getImportJob(organization.id, id);
  const check = await undrawableTextChecker(organization, job.groupId);
  const staged = await db().importRow.findMany({
    where: { jobId: id, status: "pending" },
    orderBy: { line: "asc" },
    select: { line: true, input: true },
  });
  const column = (attributes: string[]): string | null => {
    for (const attribute of attributes) {
      const field = fieldOf(attribute);
      const index = field === null ? undefined : job.mapping[field];
      if (index !== undefined) return columnName(job.columns, index);
    }
    return null;
  };
  const result: ImportTextWarnings = { rowCount: 0, rows: [] };
  for (const row of staged) {
    const input = JSON.parse(row.input) as CreateCredentialInput;
    const undrawable = await check({
      recipientName: input.recipient.name,
      issueDate: input.issueDate,
      expiryDate: input.expiryDate,
      customAttributes: input.customAttributes,
    });
    if (undrawable.length === 0) continue;
    result.rowCount++;
    for (const design of undrawable) {
      if (result.rows.length < limit) {
        result.rows.push({
          line: row.line,
          column: column(design.attributes),
          designName: design.designName,
          characters: design.describedCharacters,
          message: design.message,
        });
      }
    }
  }
  return result;
}
