-- AlterTable
ALTER TABLE "Group" ADD COLUMN "criteria" TEXT;
ALTER TABLE "Group" ADD COLUMN "description" TEXT;

-- CreateTable
CREATE TABLE "StatusList" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    "nextIndex" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StatusList_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "StatusListEntry" (
    "statusListId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "credentialId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("statusListId", "index"),
    CONSTRAINT "StatusListEntry_statusListId_fkey" FOREIGN KEY ("statusListId") REFERENCES "StatusList" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StatusListEntry_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SignedCredential" (
    "credentialId" TEXT NOT NULL,
    "contentDigest" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("credentialId", "contentDigest"),
    CONSTRAINT "SignedCredential_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "StatusList_organizationId_number_key" ON "StatusList"("organizationId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "StatusListEntry_credentialId_key" ON "StatusListEntry"("credentialId");

