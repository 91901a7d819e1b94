-- AlterTable
ALTER TABLE "Group" ADD COLUMN "expiryReminderDays" INTEGER;

-- CreateTable
CREATE TABLE "CredentialExpiryNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dueDate" TEXT NOT NULL,
    "expiryDate" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "leaseUntil" DATETIME,
    "leaseOwner" TEXT,
    "lastError" TEXT,
    "doneAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CredentialExpiryNotice_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EmailOutbox" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT,
    "credentialId" TEXT,
    "messageId" TEXT NOT NULL,
    "fromName" TEXT,
    "replyTo" TEXT,
    "toAddress" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "composition" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'credential',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "leaseOwner" TEXT,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "EmailOutbox_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EmailOutbox_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_EmailOutbox" ("attempts", "composition", "createdAt", "credentialId", "fromName", "html", "id", "lastError", "leaseOwner", "leaseUntil", "messageId", "nextAttemptAt", "organizationId", "replyTo", "sentAt", "status", "subject", "text", "toAddress", "updatedAt") SELECT "attempts", "composition", "createdAt", "credentialId", "fromName", "html", "id", "lastError", "leaseOwner", "leaseUntil", "messageId", "nextAttemptAt", "organizationId", "replyTo", "sentAt", "status", "subject", "text", "toAddress", "updatedAt" FROM "EmailOutbox";
DROP TABLE "EmailOutbox";
ALTER TABLE "new_EmailOutbox" RENAME TO "EmailOutbox";
CREATE UNIQUE INDEX "EmailOutbox_messageId_key" ON "EmailOutbox"("messageId");
CREATE INDEX "EmailOutbox_status_nextAttemptAt_idx" ON "EmailOutbox"("status", "nextAttemptAt");
CREATE INDEX "EmailOutbox_credentialId_idx" ON "EmailOutbox"("credentialId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CredentialExpiryNotice_status_nextAttemptAt_idx" ON "CredentialExpiryNotice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "CredentialExpiryNotice_credentialId_idx" ON "CredentialExpiryNotice"("credentialId");

