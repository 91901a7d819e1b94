// Recipients: one per organization and email address, found again case-insensitively.
import type { SqlClient } from "../db";
import { newId } from "../db/ids";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Case-folded for case-insensitive search that agrees on SQLite and PostgreSQL, non-ASCII included. */
export function normalizeName(name: string): string {
  return name.normalize("NFKC").toLowerCase();
}

export type RecipientRow = { id: string; name: string; email: string };

/**
 * The organization's recipient with this email, created with this name when there is none. An
 * existing recipient keeps its name: renaming a person is an explicit PATCH, not a side effect.
 */
export async function findOrCreateRecipient(
  tx: SqlClient,
  organizationId: string,
  input: { name: string; email: string },
): Promise<RecipientRow> {
  const emailNormalized = normalizeEmail(input.email);
  const now = new Date();
  // One atomic statement on both engines: two requests creating the same new recipient at once both
  // get the one row. The no-op update on conflict is what makes RETURNING hand back the existing row.
  const rows = await tx.$queryRaw<RecipientRow[]>`
    INSERT INTO "Recipient" ("id", "organizationId", "name", "email", "emailNormalized", "nameNormalized", "createdAt", "updatedAt")
    VALUES (${newId("rcp")}, ${organizationId}, ${input.name}, ${input.email.trim()}, ${emailNormalized}, ${normalizeName(input.name)}, ${now}, ${now})
    ON CONFLICT ("organizationId", "emailNormalized") DO UPDATE SET "emailNormalized" = excluded."emailNormalized"
    RETURNING "id", "name", "email"`;
  if (!rows[0]) throw new Error("recipient upsert returned no row");
  return rows[0];
}
