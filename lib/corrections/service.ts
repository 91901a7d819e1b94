// Name corrections: a recipient asks, from their wallet, that the name on one of their credentials be
// corrected; the issuer approves (the name is applied by the same function PATCH /v1/credentials/{id}
// runs, in the same transaction as the decision) or rejects with a reason, and the recipient is emailed
// either way. One open request per credential is the database's rule (a unique column set only while
// open), and every decision is a conditional update on `status = 'open'`, so two concurrent requests,
// or an approve racing a reject, leave exactly one winner and one 409.
import { ApiError, invalidField, notFound } from "../core/errors";
import { newestFirstPage, type Page } from "../core/pagination";
import { db, type Tx } from "../db";
import { isUniqueViolation } from "../db/constraint-errors";
import { newId } from "../db/ids";
import { readStatus } from "../credentials/serialize";
import { updateCredentialWithin } from "../credentials/service";
import { nudgeMailWorker } from "../mail/nudge";
import type { Caller } from "../organizations/service";
import { normalizeEmail } from "../recipients/service";
import { recordWebhookEvents, type PendingWebhookEvent } from "../webhooks/outbox";
import { queueCorrectionOutcomeEmail } from "./emails";
import type { ApiCorrectionRequest, CorrectionRequestInput, CorrectionStatus, RejectCorrectionInput } from "./schema";
import { correctionSelect, serializeCorrection, type CorrectionRow } from "./serialize";

type Organization = Caller["organization"];

function conflict(message: string): ApiError {
  return new ApiError("conflict", message);
}

function correctionEvent(type: "correction_request.created" | "correction_request.resolved", row: CorrectionRow): PendingWebhookEvent {
  return { type, data: () => serializeCorrection(row) };
}

/**
 * The credential `publicId` names if it is addressed to `email` (case-insensitively), else 404: a
 * recipient cannot tell another's credential from one that does not exist.
 */
async function recipientsCredential(email: string, publicId: string) {
  const credential = await db().credential.findFirst({
    where: { publicId, recipient: { emailNormalized: normalizeEmail(email) } },
    select: {
      id: true,
      organizationId: true,
      recipientName: true,
      status: true,
      issueDate: true,
      expiryDate: true,
      revokedAt: true,
    },
  });
  if (!credential) throw notFound("Credential");
  return credential;
}

/** A recipient's request, signed in to their wallet as `email`. */
export async function requestNameCorrection(email: string, publicId: string, input: CorrectionRequestInput): Promise<ApiCorrectionRequest> {
  const credential = await recipientsCredential(email, publicId);
  if (credential.revokedAt !== null) {
    throw conflict("This credential was revoked; its name can no longer be corrected.");
  }
  const status = readStatus(credential);
  if (status === "draft" || status === "scheduled") {
    throw conflict("This credential has not been issued yet; its name can be corrected once it is.");
  }
  if (input.name === credential.recipientName) throw invalidField("name", "is already the name on this credential");
  const now = new Date();
  const row: CorrectionRow & { organizationId: string; openCredentialId: string; requestedByEmail: string } = {
    id: newId("ncr"),
    organizationId: credential.organizationId,
    credentialId: credential.id,
    openCredentialId: credential.id,
    requestedByEmail: email,
    currentName: credential.recipientName,
    requestedName: input.name,
    note: input.note ? input.note : null,
    status: "open",
    createdAt: now,
    resolvedAt: null,
    resolution: null,
  };
  try {
    await db().$transaction(async (tx) => {
      await tx.correctionRequest.create({ data: row });
      await recordWebhookEvents(tx, credential.organizationId, [correctionEvent("correction_request.created", row)]);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("This credential already has an open name correction request; the issuer has not answered it yet.");
    }
    throw error;
  }
  return serializeCorrection(row);
}

/** The requests made for one of the recipient's credentials, newest first (the wallet shows their status). */
export async function recipientsCorrectionRequests(email: string, publicId: string): Promise<ApiCorrectionRequest[]> {
  const requests = await correctionRequestsIfRecipient(email, publicId);
  if (!requests) throw notFound("Credential");
  return requests;
}

/** The same, or null when the credential is not addressed to `email`: the wallet page shows its form only to its recipient. */
export async function correctionRequestsIfRecipient(email: string, publicId: string): Promise<ApiCorrectionRequest[] | null> {
  const credential = await db().credential.findFirst({
    where: { publicId, recipient: { emailNormalized: normalizeEmail(email) } },
    select: { id: true },
  });
  if (!credential) return null;
  const rows = await db().correctionRequest.findMany({
    where: { credentialId: credential.id },
    select: correctionSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 20,
  });
  return rows.map(serializeCorrection);
}

/** The newest request of each of these credentials (by publicId) that has one: what /wallet's cards show. */
export async function latestCorrectionRequests(email: string, publicIds: readonly string[]): Promise<Map<string, ApiCorrectionRequest>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db().correctionRequest.findMany({
    where: { credential: { publicId: { in: [...publicIds] }, recipient: { emailNormalized: normalizeEmail(email) } } },
    select: { ...correctionSelect, credential: { select: { publicId: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const latest = new Map<string, ApiCorrectionRequest>();
  for (const { credential, ...row } of rows)
    if (!latest.has(credential.publicId)) latest.set(credential.publicId, serializeCorrection(row));
  return latest;
}

export async function listCorrectionRequests(
  organization: { id: string },
  options: { status?: CorrectionStatus; cursor?: string; limit: number },
): Promise<Page<ApiCorrectionRequest>> {
  return newestFirstPage({
    scope: `correction-requests:${options.status ?? "all"}`,
    cursor: options.cursor,
    limit: options.limit,
    fetch: ({ where, orderBy, take }) =>
      db().correctionRequest.findMany({
        where: { organizationId: organization.id, ...(options.status ? { status: options.status } : {}), ...where },
        orderBy,
        take,
        select: correctionSelect,
      }),
    serialize: serializeCorrection,
  });
}

export async function countOpenCorrectionRequests(organizationId: string): Promise<number> {
  return db().correctionRequest.count({ where: { organizationId, status: "open" } });
}

/** A request with the credential's title, for the dashboard's queue. */
export type QueuedCorrection = ApiCorrectionRequest & { credentialTitle: string; credentialPublicId: string };

export async function correctionQueue(organizationId: string, status: CorrectionStatus, take = 100): Promise<QueuedCorrection[]> {
  const rows = await db().correctionRequest.findMany({
    where: { organizationId, status },
    // Open ones oldest first (the longest waiting at the top); resolved ones newest decision first.
    orderBy: status === "open" ? [{ createdAt: "asc" }, { id: "asc" }] : [{ resolvedAt: "desc" }, { id: "desc" }],
    take,
    select: { ...correctionSelect, credential: { select: { publicId: true, group: { select: { name: true } } } } },
  });
  return rows.map(({ credential, ...row }) => ({
    ...serializeCorrection(row),
    credentialTitle: credential.group.name,
    credentialPublicId: credential.publicId,
  }));
}

/**
 * Takes an open request for a decision, inside `tx`: the conditional update on `status = 'open'` is
 * what makes one of two concurrent decisions win and the other a 409.
 */
async function decide(
  tx: Tx,
  organizationId: string,
  id: string,
  decision: { status: "approved" | "rejected"; resolution: string | null },
): Promise<CorrectionRow> {
  const request = await tx.correctionRequest.findFirst({ where: { id, organizationId }, select: correctionSelect });
  if (!request) throw notFound("Correction request");
  const resolvedBefore = () =>
    conflict(
      `This correction request was already ${request.status === "open" ? "resolved by another request" : request.status}; it cannot be resolved again.`,
    );
  if (request.status !== "open") throw resolvedBefore();
  const resolvedAt = new Date();
  const { count } = await tx.correctionRequest.updateMany({
    where: { id, organizationId, status: "open" },
    data: { status: decision.status, resolution: decision.resolution, resolvedAt, openCredentialId: null },
  });
  if (count !== 1) throw resolvedBefore();
  return { ...request, ...decision, resolvedAt };
}

/**
 * Approves: the name is applied as PATCH /v1/credentials/{id} with that recipient name applies it (new
 * previews and signed document follow from the changed credential; its wallet link stays), in the
 * same transaction as the decision, with the `credential.updated` and `correction_request.resolved`
 * events and the recipient's email.
 */
export async function approveCorrectionRequest(organization: Organization, id: string): Promise<ApiCorrectionRequest> {
  const request = await db().$transaction(async (tx) => {
    const decided = await decide(tx, organization.id, id, { status: "approved", resolution: null });
    const credential = await tx.credential.findUniqueOrThrow({
      where: { id: decided.credentialId },
      select: { recipientId: true, revokedAt: true },
    });
    // Revoked after the request was made: revocation is final, so the name stays; the request can be rejected.
    if (credential.revokedAt !== null) {
      throw conflict(
        `The credential was revoked on ${credential.revokedAt.toISOString()}, after this request was made; a revoked credential cannot be changed, so the request can only be rejected.`,
      );
    }
    if (credential.recipientId === null) throw conflict("The credential no longer has a recipient whose name could be corrected.");
    await updateCredentialWithin(tx, organization, decided.credentialId, {
      recipient: { id: credential.recipientId, name: decided.requestedName },
    });
    await recordWebhookEvents(tx, organization.id, [correctionEvent("correction_request.resolved", decided)]);
    await queueCorrectionOutcomeEmail(tx, organization, decided);
    return decided;
  });
  // The outcome email is queued (and, were the credential a scheduled one, its own email too).
  nudgeMailWorker();
  return serializeCorrection(request);
}

/** Rejects with a reason, which the recipient is emailed. The credential is not touched. */
export async function rejectCorrectionRequest(
  organization: Organization,
  id: string,
  input: RejectCorrectionInput,
): Promise<ApiCorrectionRequest> {
  const request = await db().$transaction(async (tx) => {
    const decided = await decide(tx, organization.id, id, { status: "rejected", resolution: input.reason });
    await recordWebhookEvents(tx, organization.id, [correctionEvent("correction_request.resolved", decided)]);
    await queueCorrectionOutcomeEmail(tx, organization, decided);
    return decided;
  });
  nudgeMailWorker();
  return serializeCorrection(request);
}
