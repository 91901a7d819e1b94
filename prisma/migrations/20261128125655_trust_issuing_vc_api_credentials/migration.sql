-- CreateTable
CREATE TABLE "ApiIssuedCredential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "document" TEXT,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApiIssuedCredential_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_StatusListEntry" (
    "statusListId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "credentialId" TEXT,
    "apiIssuedCredentialId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("statusListId", "index"),
    CONSTRAINT "StatusListEntry_statusListId_fkey" FOREIGN KEY ("statusListId") REFERENCES "StatusList" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StatusListEntry_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "StatusListEntry_apiIssuedCredentialId_fkey" FOREIGN KEY ("apiIssuedCredentialId") REFERENCES "ApiIssuedCredential" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_StatusListEntry" ("createdAt", "credentialId", "index", "statusListId") SELECT "createdAt", "credentialId", "index", "statusListId" FROM "StatusListEntry";
DROP TABLE "StatusListEntry";
ALTER TABLE "new_StatusListEntry" RENAME TO "StatusListEntry";
CREATE UNIQUE INDEX "StatusListEntry_credentialId_key" ON "StatusListEntry"("credentialId");
CREATE UNIQUE INDEX "StatusListEntry_apiIssuedCredentialId_key" ON "StatusListEntry"("apiIssuedCredentialId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ApiIssuedCredential_organizationId_credentialId_idx" ON "ApiIssuedCredential"("organizationId", "credentialId");

