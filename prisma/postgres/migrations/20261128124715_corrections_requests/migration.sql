-- CreateTable
CREATE TABLE "CorrectionRequest" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "openCredentialId" TEXT,
    "requestedByEmail" TEXT NOT NULL,
    "currentName" TEXT NOT NULL,
    "requestedName" TEXT NOT NULL,
    "note" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolution" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),

    CONSTRAINT "CorrectionRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CorrectionRequest_openCredentialId_key" ON "CorrectionRequest"("openCredentialId");

-- CreateIndex
CREATE INDEX "CorrectionRequest_organizationId_createdAt_id_idx" ON "CorrectionRequest"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CorrectionRequest_organizationId_status_createdAt_id_idx" ON "CorrectionRequest"("organizationId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CorrectionRequest_credentialId_createdAt_idx" ON "CorrectionRequest"("credentialId", "createdAt");

-- AddForeignKey
ALTER TABLE "CorrectionRequest" ADD CONSTRAINT "CorrectionRequest_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CorrectionRequest" ADD CONSTRAINT "CorrectionRequest_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

