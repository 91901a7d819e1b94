// What became of a credential's emails, kept on its funnel row (CredentialEngagement."mail") by every
// write that changes it: queueing an email, the worker's outcome, a cancel. The analytics funnel then
// reads one number per credential instead of probing the outbox for each of an organization's
// credentials (bench:funnel: the probe was a quarter of the all-time answer at 100,000 credentials).
//
// The number is the most telling outcome of the credential's emails (kind `credential`; reminders and
// account emails do not count): delivered 4 (any of them sent), else bounced 3, else failed 2, else
// waiting 1, else none 0 (never sent, or cancelled). The migration that added the column backfilled it
// with the same rule.
import { config } from "../config";
import type { SqlClient } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { bouncedCondition } from "./bounces";

export const MAIL_OUTCOME = { delivered: 4, bounced: 3, failed: 2, waiting: 1, none: 0 } as const;
type MailOutcomeName = keyof typeof MAIL_OUTCOME;

/** The outcome as a SQL literal, for statements that compare or count it. */
export const mailOutcomeSql = (name: MailOutcomeName): Prisma.Sql => Prisma.raw(String(MAIL_OUTCOME[name]));

/** The outcome of the `EmailOutbox` rows aliased `alias` (an aggregate: use with GROUP BY). */
function outcomeOfRows(alias: string): Prisma.Sql {
  const status = Prisma.raw(`${alias}."status"`);
  return Prisma.sql`MAX(CASE
    WHEN ${status} = 'sent' THEN ${mailOutcomeSql("delivered")}
    WHEN ${status} = 'failed' AND ${bouncedCondition(alias)} THEN ${mailOutcomeSql("bounced")}
    WHEN ${status} = 'failed' THEN ${mailOutcomeSql("failed")}
    WHEN ${status} = 'queued' THEN ${mailOutcomeSql("waiting")}
    ELSE ${mailOutcomeSql("none")} END)`;
}

const greatest = () => (config().databaseProvider === "sqlite" ? Prisma.raw("MAX") : Prisma.raw("GREATEST"));

/**
 * A credential email was queued: its credential is at least waiting. One statement, and it only
 * raises the number, so it commutes with a concurrent recount (refreshMailOutcomes).
 */
export async function noteCredentialEmailQueued(tx: SqlClient, email: { organizationId: string; credentialId: string }): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "mail")
    VALUES (${email.credentialId}, ${email.organizationId}, ${mailOutcomeSql("waiting")})
    ON CONFLICT ("credentialId") DO UPDATE SET "mail" = ${greatest()}("CredentialEngagement"."mail", excluded."mail")`;
}

/**
 * Counts again the outcome of the credentials whose emails changed (by outbox row or by credential), in
 * the caller's transaction, after the change. On PostgreSQL the rows are locked first: at READ
 * COMMITTED the recount's statement then starts after any other transaction that changed another email
 * of the same credential has committed, and sees its change (two emails of one credential finishing
 * in two processes at once would otherwise each write a count that misses the other). SQLite has one
 * writer at a time.
 */
export async function refreshMailOutcomes(tx: SqlClient, changed: { outboxIds: string[] } | { credentialIds: string[] }): Promise<void> {
  const ids = "outboxIds" in changed ? changed.outboxIds : changed.credentialIds;
  if (ids.length === 0) return;
  const credentials =
    "outboxIds" in changed
      ? Prisma.sql`SELECT t."credentialId" FROM "EmailOutbox" t
          WHERE t."id" IN (${Prisma.join(ids)}) AND t."kind" = 'credential' AND t."credentialId" IS NOT NULL`
      : Prisma.sql`SELECT t."id" FROM "Credential" t WHERE t."id" IN (${Prisma.join(ids)})`;
  if (config().databaseProvider !== "sqlite")
    await tx.$executeRaw`
      INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "mail")
      SELECT c."id", c."organizationId", ${mailOutcomeSql("none")} FROM "Credential" c WHERE c."id" IN (${credentials})
      ORDER BY c."id"
      ON CONFLICT ("credentialId") DO UPDATE SET "mail" = "CredentialEngagement"."mail"`;
  await tx.$executeRaw`
    INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "mail")
    SELECT c."id", c."organizationId", COALESCE(MAX(m."outcome"), ${mailOutcomeSql("none")})
    FROM "Credential" c
    LEFT JOIN (
      SELECT o."credentialId", ${outcomeOfRows("o")} AS "outcome" FROM "EmailOutbox" o
      WHERE o."kind" = 'credential' AND o."credentialId" IN (${credentials})
      GROUP BY o."credentialId"
    ) m ON m."credentialId" = c."id"
    WHERE c."id" IN (${credentials})
    GROUP BY c."id", c."organizationId"
    ON CONFLICT ("credentialId") DO UPDATE SET "mail" = excluded."mail"`;
}
