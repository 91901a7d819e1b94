-- CreateTable
CREATE TABLE "Oid4vciOffer" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "preAuthorizedCodeHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "redeemedAt" TIMESTAMP(3),
    "accessTokenHash" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Oid4vciOffer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Oid4vciNonce" (
    "nonceHash" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Oid4vciNonce_pkey" PRIMARY KEY ("nonceHash")
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

