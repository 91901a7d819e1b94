-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "revocationReason" TEXT,
ADD COLUMN     "revokedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Credential_organizationId_revokedAt_id_idx" ON "Credential"("organizationId", "revokedAt", "id");

