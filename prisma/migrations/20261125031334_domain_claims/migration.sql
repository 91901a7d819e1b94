-- CreateTable
CREATE TABLE "DomainClaim" (
    "organizationId" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "verifiedDomain" TEXT,
    "verifiedAt" DATETIME,
    "lastCheckedAt" DATETIME,
    "lastOutcome" TEXT,
    "lastMessage" TEXT,
    "droppedReason" TEXT,
    "unansweredChecks" INTEGER NOT NULL DEFAULT 0,
    "nextCheckAt" DATETIME,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DomainClaim_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "DomainClaim_verifiedDomain_key" ON "DomainClaim"("verifiedDomain");

-- CreateIndex
CREATE INDEX "DomainClaim_domain_idx" ON "DomainClaim"("domain");

-- CreateIndex
CREATE INDEX "DomainClaim_nextCheckAt_idx" ON "DomainClaim"("nextCheckAt");

