-- CreateTable
CREATE TABLE "WalletSignInLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "outboxId" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "WalletSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN "visibility" TEXT NOT NULL DEFAULT 'public';

-- CreateIndex
CREATE UNIQUE INDEX "WalletSignInLink_tokenHash_key" ON "WalletSignInLink"("tokenHash");

-- CreateIndex
CREATE INDEX "WalletSignInLink_expiresAt_idx" ON "WalletSignInLink"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "WalletSession_tokenHash_key" ON "WalletSession"("tokenHash");

-- CreateIndex
CREATE INDEX "WalletSession_email_idx" ON "WalletSession"("email");

-- CreateIndex
CREATE INDEX "WalletSession_expiresAt_idx" ON "WalletSession"("expiresAt");

-- CreateIndex
CREATE INDEX "Recipient_emailNormalized_idx" ON "Recipient"("emailNormalized");

