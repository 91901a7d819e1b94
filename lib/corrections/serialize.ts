// Correction request row → API shape: the one place both the /v1 API, the webhook events and the
// wallet take it from.
import type { ApiCorrectionRequest, CorrectionStatus } from "./schema";

export type CorrectionRow = {
  id: string;
  credentialId: string;
  currentName: string;
  requestedName: string;
  note: string | null;
  status: string;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: string | null;
};

export const correctionSelect = {
  id: true,
  credentialId: true,
  currentName: true,
  requestedName: true,
  note: true,
  status: true,
  createdAt: true,
  resolvedAt: true,
  resolution: true,
} as const;

export function serializeCorrection(row: CorrectionRow): ApiCorrectionRequest {
  return {
    id: row.id,
    credentialId: row.credentialId,
    currentName: row.currentName,
    requestedName: row.requestedName,
    note: row.note,
    status: row.status as CorrectionStatus,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolution: row.resolution,
  };
}
