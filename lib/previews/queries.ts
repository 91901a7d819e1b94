// The previews' plain SQL on the path of every credential email (create-issue-send stores the
// certificate image's version in its transaction): one statement each, no query compilation (the query
// compiler was 15% of the server's CPU in bench:issue). The same text runs on SQLite and PostgreSQL.
import type { SqlClient } from "../db";
import { rawDate } from "../db/raw-values";

export type FirstDesignRow = { design: { id: string; updatedAt: Date }; revision: { id: string; document: string } | null };

/** A group's first design (by position) and its current revision; null when the group has none. */
export async function selectFirstGroupDesign(client: SqlClient, groupId: string): Promise<FirstDesignRow | null> {
  const rows = await client.$queryRaw<{ id: string; updatedAt: unknown; revisionId: string | null; document: string | null }[]>`
    SELECT d."id", d."updatedAt", r."id" AS "revisionId", r."document"
    FROM "GroupDesign" gd
    JOIN "Design" d ON d."id" = gd."designId"
    LEFT JOIN "DesignRevision" r ON r."id" = d."currentRevisionId"
    WHERE gd."groupId" = ${groupId}
    ORDER BY gd."position" ASC
    LIMIT 1`;
  const row = rows[0];
  if (!row) return null;
  return {
    design: { id: row.id, updatedAt: rawDate(row.updatedAt) },
    revision: row.revisionId !== null && row.document !== null ? { id: row.revisionId, document: row.document } : null,
  };
}

export type PreviewVersionRow = {
  id: string;
  digest: string;
  kind: string;
  designId: string;
  designRevisionId: string;
  credentialId: string | null;
  values: string;
  meta: string;
  createdAt: Date;
};

/** Stores a preview version unless its digest is stored already (same digest, same inputs): one statement, race-free. */
export async function insertPreviewVersionUnlessStored(client: SqlClient, row: PreviewVersionRow): Promise<void> {
  await client.$executeRaw`
    INSERT INTO "PreviewVersion" ("id", "digest", "kind", "designId", "designRevisionId", "credentialId", "values", "meta", "createdAt")
    VALUES (${row.id}, ${row.digest}, ${row.kind}, ${row.designId}, ${row.designRevisionId}, ${row.credentialId}, ${row.values}, ${row.meta}, ${row.createdAt})
    ON CONFLICT ("digest") DO NOTHING`;
}
