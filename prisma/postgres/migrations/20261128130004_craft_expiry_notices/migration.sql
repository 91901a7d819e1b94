-- AlterTable
ALTER TABLE "Group" ADD COLUMN     "expiryReminderDays" INTEGER;

-- AlterTable
ALTER TABLE "EmailOutbox" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'credential';

-- CreateTable
CREATE TABLE "CredentialExpiryNotice" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dueDate" TEXT NOT NULL,
    "expiryDate" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "leaseUntil" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "lastError" TEXT,
    "doneAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CredentialExpiryNotice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CredentialExpiryNotice_status_nextAttemptAt_idx" ON "CredentialExpiryNotice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "CredentialExpiryNotice_credentialId_idx" ON "CredentialExpiryNotice"("credentialId");

-- AddForeignKey
ALTER TABLE "CredentialExpiryNotice" ADD CONSTRAINT "CredentialExpiryNotice_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

