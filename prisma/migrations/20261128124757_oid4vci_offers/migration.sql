-- CreateTable
CREATE TABLE "Oid4vciOffer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "preAuthorizedCodeHash" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "redeemedAt" DATETIME,
    "accessTokenHash" TEXT,
    "accessTokenExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Oid4vciNonce" (
    "nonceHash" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Oid4vciOffer_preAuthorizedCodeHash_key" ON "Oid4vciOffer"("preAuthorizedCodeHash");

-- CreateIndex
CREATE UNIQUE INDEX "Oid4vciOffer_accessTokenHash_key" ON "Oid4vciOffer"("accessTokenHash");

-- CreateIndex
CREATE INDEX "Oid4vciOffer_credentialId_idx" ON "Oid4vciOffer"("credentialId");

-- CreateIndex
CREATE INDEX "Oid4vciOffer_expiresAt_idx" ON "Oid4vciOffer"("expiresAt");

-- CreateIndex
CREATE INDEX "Oid4vciNonce_expiresAt_idx" ON "Oid4vciNonce"("expiresAt");

