-- DropIndex
DROP INDEX "Credential_recipientId_idx";

-- CreateIndex
CREATE INDEX "Credential_recipientId_organizationId_createdAt_id_idx" ON "Credential"("recipientId", "organizationId", "createdAt", "id");

