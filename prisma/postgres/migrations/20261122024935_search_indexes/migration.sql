-- DropIndex
DROP INDEX "Credential_organizationId_status_createdAt_idx";

-- DropIndex
DROP INDEX "Credential_organizationId_groupId_createdAt_idx";

-- CreateIndex
CREATE INDEX "Credential_organizationId_id_idx" ON "Credential"("organizationId", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_status_createdAt_id_idx" ON "Credential"("organizationId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_groupId_createdAt_id_idx" ON "Credential"("organizationId", "groupId", "createdAt", "id");

