-- CreateTable
CREATE TABLE "IssuerKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "currentFor" TEXT,
    "publicKeyMultibase" TEXT NOT NULL,
    "encryptedSecretKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" DATETIME,
    CONSTRAINT "IssuerKey_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "IssuerKey_currentFor_key" ON "IssuerKey"("currentFor");

-- CreateIndex
CREATE INDEX "IssuerKey_organizationId_createdAt_idx" ON "IssuerKey"("organizationId", "createdAt");

