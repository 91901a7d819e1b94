// The credentials service's plain SQL: the statements on the path of every create and
// create-issue-send (one statement each, no query compilation; see bench:issue) and the ones whose
// conditions are the concurrency rule itself. The same text runs on SQLite and PostgreSQL.
import type { SqlClient } from "../db";
import { rawNullableInt } from "../db/raw-values";
import { directRows } from "../db/direct-read";
import { credentialRowFromRaw, type CredentialRow, type RawCredentialRow } from "./serialize";

export const groupSelect = {
  id: true,
  name: true,
  expiryAmount: true,
  expiryUnit: true,
  emailSubject: true,
  emailHtml: true,
  emailText: true,
  language: true,
  expiryReminderDays: true,
} as const;

export type GroupForCredential = {
  id: string;
  name: string;
  expiryAmount: number | null;
  expiryUnit: string | null;
  emailSubject: string | null;
  emailHtml: string | null;
  emailText: string | null;
  /** The group's fixed language (lib/i18n/locales.ts), or null; the email is written in it. */
  language: string | null;
  /** Remind recipients this many days before expiry (lib/expiry), or null. */
  expiryReminderDays: number | null;
};

/** The group a new credential belongs to, if the organization has it (read before the transaction, past the Prisma client). */
export async function selectGroupForCredential(organizationId: string, groupId: string): Promise<GroupForCredential | null> {
  const rows = await directRows<
    Omit<GroupForCredential, "expiryAmount" | "expiryReminderDays"> & { expiryAmount: unknown; expiryReminderDays: unknown }
  >`
    SELECT "id", "name", "expiryAmount", "expiryUnit", "emailSubject", "emailHtml", "emailText", "language", "expiryReminderDays"
    FROM "Group" WHERE "id" = ${groupId} AND "organizationId" = ${organizationId}`;
  const group = rows[0];
  return group
    ? { ...group, expiryAmount: rawNullableInt(group.expiryAmount), expiryReminderDays: rawNullableInt(group.expiryReminderDays) }
    : null;
}

/**
 * Takes the credential's row lock before a read-modify-write (PATCH merges into what it reads; a send
 * looks for its own repeats), so concurrent requests apply one after the other on PostgreSQL. On SQLite
 * the transaction's write lock already orders them. False when the organization has no such credential.
 */
export async function lockCredentialRow(tx: SqlClient, organizationId: string, id: string): Promise<boolean> {
  const locked = await tx.$executeRaw`
    UPDATE "Credential" SET "updatedAt" = "updatedAt" WHERE "id" = ${id} AND "organizationId" = ${organizationId}`;
  return locked === 1;
}

/**
 * Counts one issue in the organization's month, unless `quota` are counted already. The condition
 * makes the increment itself the check: concurrent issues cannot both take the last one.
 */
export async function countIssueWithinQuota(tx: SqlClient, organizationId: string, month: string, quota: number): Promise<boolean> {
  await tx.$executeRaw`
    INSERT INTO "MonthlyUsage" ("organizationId", "month", "issued") VALUES (${organizationId}, ${month}, 0)
    ON CONFLICT ("organizationId", "month") DO NOTHING`;
  const counted = await tx.$executeRaw`
    UPDATE "MonthlyUsage" SET "issued" = "issued" + 1
    WHERE "organizationId" = ${organizationId} AND "month" = ${month} AND "issued" < ${quota}`;
  return counted === 1;
}

export type NewCredentialRow = {
  id: string;
  publicId: string;
  organizationId: string;
  groupId: string;
  recipientId: string | null;
  recipientName: string;
  status: "draft" | "issued" | "scheduled";
  issueDate: string;
  expiryDate: string | null;
  expiryDateExplicit: boolean;
  /** JSON text. */
  customAttributes: string;
  issuedAt: Date | null;
  sendPending: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export async function insertCredentialRow(tx: SqlClient, row: NewCredentialRow): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "Credential" ("id", "publicId", "organizationId", "groupId", "recipientId", "recipientName", "status",
      "issueDate", "expiryDate", "expiryDateExplicit", "customAttributes", "issuedAt", "sendPending", "createdAt", "updatedAt")
    VALUES (${row.id}, ${row.publicId}, ${row.organizationId}, ${row.groupId}, ${row.recipientId}, ${row.recipientName}, ${row.status},
      ${row.issueDate}, ${row.expiryDate}, ${row.expiryDateExplicit}, ${row.customAttributes}, ${row.issuedAt}, ${row.sendPending},
      ${row.createdAt}, ${row.updatedAt})`;
}

/**
 * One credential as `GET /v1/credentials/{id}` shows it, with its recipient, in one statement read past
 * the Prisma client (lib/db/direct-read.ts): the Prisma relation query it replaces spent most of its
 * time compiling the query and in the client's request pipeline (bench:api).
 */
export async function selectCredentialForRead(organizationId: string, id: string): Promise<CredentialRow | null> {
  const rows = await directRows<RawCredentialRow>`
    SELECT c."id", c."publicId", c."groupId", c."status", c."recipientName", c."issueDate", c."expiryDate",
           c."customAttributes", c."revokedAt", c."revocationReason", c."createdAt", c."updatedAt",
           r."id" AS "recipient_id", r."name" AS "recipient_name", r."email" AS "recipient_email"
    FROM "Credential" c LEFT JOIN "Recipient" r ON r."id" = c."recipientId"
    WHERE c."id" = ${id} AND c."organizationId" = ${organizationId}`;
  const row = rows[0];
  return row ? credentialRowFromRaw(row) : null;
}
