-- CreateTable
CREATE TABLE "CorrectionRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "openCredentialId" TEXT,
    "requestedByEmail" TEXT NOT NULL,
    "currentName" TEXT NOT NULL,
    "requestedName" TEXT NOT NULL,
    "note" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolution" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    CONSTRAINT "CorrectionRequest_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CorrectionRequest_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "CorrectionRequest_openCredentialId_key" ON "CorrectionRequest"("openCredentialId");

-- CreateIndex
CREATE INDEX "CorrectionRequest_organizationId_createdAt_id_idx" ON "CorrectionRequest"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CorrectionRequest_organizationId_status_createdAt_id_idx" ON "CorrectionRequest"("organizationId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CorrectionRequest_credentialId_createdAt_idx" ON "CorrectionRequest"("credentialId", "createdAt");

