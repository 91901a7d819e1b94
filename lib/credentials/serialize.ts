// Credential row → API shape. Status is read through `readStatus`, so get, list and search agree.
import { todayUtc } from "../core/dates";
import { rawDate, rawNullableDate } from "../db/raw-values";
import type { CredentialStatus } from "./schema";

export const credentialInclude = { recipient: { select: { id: true, name: true, email: true } } } as const;

export type CredentialRow = {
  id: string;
  publicId: string;
  groupId: string;
  status: string;
  recipientName: string;
  issueDate: string;
  expiryDate: string | null;
  customAttributes: string;
  revokedAt: Date | null;
  revocationReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  recipient: { id: string; name: string; email: string } | null;
};

/**
 * A credential joined with its recipient as plain SQL reads it (`GET /v1/credentials/{id}`, search):
 * dates as each engine's driver gives them, the recipient's columns as `recipient_*`.
 */
export type RawCredentialRow = Omit<CredentialRow, "createdAt" | "updatedAt" | "revokedAt" | "recipient"> & {
  revokedAt: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  recipient_id: string | null;
  recipient_name: string | null;
  recipient_email: string | null;
};

export function credentialRowFromRaw({ recipient_id, recipient_name, recipient_email, ...row }: RawCredentialRow): CredentialRow {
  return {
    ...row,
    revokedAt: rawNullableDate(row.revokedAt),
    createdAt: rawDate(row.createdAt),
    updatedAt: rawDate(row.updatedAt),
    recipient: recipient_id !== null ? { id: recipient_id, name: recipient_name!, email: recipient_email! } : null,
  };
}

/**
 * What a credential's status reads as today: a scheduled credential whose date has come is issued
 * (the scheduler catches up with the stored value), an issued one past its expiry date is expired.
 */
export function readStatus(row: { status: string; issueDate: string; expiryDate: string | null }, today = todayUtc()): CredentialStatus {
  const issued = row.status === "issued" || (row.status === "scheduled" && row.issueDate <= today);
  if (!issued) return row.status as CredentialStatus;
  return row.expiryDate !== null && row.expiryDate < today ? "expired" : "issued";
}

export function serializeCredential(row: CredentialRow, today = todayUtc()) {
  return {
    id: row.id,
    publicId: row.publicId,
    groupId: row.groupId,
    status: readStatus(row, today),
    recipient: row.recipient ? { id: row.recipient.id, name: row.recipient.name, email: row.recipient.email } : null,
    issueDate: row.issueDate,
    expiryDate: row.expiryDate,
    attributes: { "recipient.name": row.recipientName },
    customAttributes: JSON.parse(row.customAttributes) as Record<string, string | null>,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revocationReason: row.revocationReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type ApiCredential = ReturnType<typeof serializeCredential>;
