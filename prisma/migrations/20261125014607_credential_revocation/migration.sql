-- AlterTable
ALTER TABLE "Credential" ADD COLUMN "revocationReason" TEXT;
ALTER TABLE "Credential" ADD COLUMN "revokedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Credential_organizationId_revokedAt_id_idx" ON "Credential"("organizationId", "revokedAt", "id");

