-- AlterTable
ALTER TABLE "StatusListEntry" ADD COLUMN     "apiIssuedCredentialId" TEXT;

-- CreateTable
CREATE TABLE "ApiIssuedCredential" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "document" TEXT,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiIssuedCredential_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiIssuedCredential_organizationId_credentialId_idx" ON "ApiIssuedCredential"("organizationId", "credentialId");

-- CreateIndex
CREATE UNIQUE INDEX "StatusListEntry_apiIssuedCredentialId_key" ON "StatusListEntry"("apiIssuedCredentialId");

-- AddForeignKey
ALTER TABLE "StatusListEntry" ADD CONSTRAINT "StatusListEntry_apiIssuedCredentialId_fkey" FOREIGN KEY ("apiIssuedCredentialId") REFERENCES "ApiIssuedCredential"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiIssuedCredential" ADD CONSTRAINT "ApiIssuedCredential_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

