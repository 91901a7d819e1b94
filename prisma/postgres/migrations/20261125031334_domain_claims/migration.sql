-- CreateTable
CREATE TABLE "DomainClaim" (
    "organizationId" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "verifiedDomain" TEXT,
    "verifiedAt" TIMESTAMP(3),
    "lastCheckedAt" TIMESTAMP(3),
    "lastOutcome" TEXT,
    "lastMessage" TEXT,
    "droppedReason" TEXT,
    "unansweredChecks" INTEGER NOT NULL DEFAULT 0,
    "nextCheckAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DomainClaim_pkey" PRIMARY KEY ("organizationId")
);

-- CreateIndex
CREATE UNIQUE INDEX "DomainClaim_verifiedDomain_key" ON "DomainClaim"("verifiedDomain");

-- CreateIndex
CREATE INDEX "DomainClaim_domain_idx" ON "DomainClaim"("domain");

-- CreateIndex
CREATE INDEX "DomainClaim_nextCheckAt_idx" ON "DomainClaim"("nextCheckAt");

-- AddForeignKey
ALTER TABLE "DomainClaim" ADD CONSTRAINT "DomainClaim_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

