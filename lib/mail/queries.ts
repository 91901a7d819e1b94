// The mail domain's plain SQL: the statements create-issue-send runs for every email it queues (one
// statement each, no query compilation; the query compiler was 15% of the server's CPU in bench:issue).
// The same text runs on SQLite and PostgreSQL.
import type { SqlClient } from "../db";
import { rawDate } from "../db/raw-values";

export type OrganizationEmailRow = {
  name: string;
  senderName: string | null;
  contactEmail: string | null;
  brandColor: string | null;
  logoMimeType: string | null;
  updatedAt: Date;
};

/** What an organization's emails show of it; null when there is no such organization. */
export async function selectOrganizationEmailRow(client: SqlClient, organizationId: string): Promise<OrganizationEmailRow | null> {
  const rows = await client.$queryRaw<(Omit<OrganizationEmailRow, "updatedAt"> & { updatedAt: unknown })[]>`
    SELECT "name", "senderName", "contactEmail", "brandColor", "logoMimeType", "updatedAt"
    FROM "Organization" WHERE "id" = ${organizationId}`;
  const row = rows[0];
  return row ? { ...row, updatedAt: rawDate(row.updatedAt) } : null;
}
