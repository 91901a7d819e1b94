-- CreateTable
CREATE TABLE "IssuerKey" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "currentFor" TEXT,
    "publicKeyMultibase" TEXT NOT NULL,
    "encryptedSecretKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "IssuerKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "IssuerKey_currentFor_key" ON "IssuerKey"("currentFor");

-- CreateIndex
CREATE INDEX "IssuerKey_organizationId_createdAt_idx" ON "IssuerKey"("organizationId", "createdAt");

-- AddForeignKey
ALTER TABLE "IssuerKey" ADD CONSTRAINT "IssuerKey_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

