-- AlterTable
ALTER TABLE "Group" ADD COLUMN     "criteria" TEXT,
ADD COLUMN     "description" TEXT;

-- CreateTable
CREATE TABLE "StatusList" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    "nextIndex" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StatusList_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StatusListEntry" (
    "statusListId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "credentialId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StatusListEntry_pkey" PRIMARY KEY ("statusListId","index")
);

-- CreateTable
CREATE TABLE "SignedCredential" (
    "credentialId" TEXT NOT NULL,
    "contentDigest" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignedCredential_pkey" PRIMARY KEY ("credentialId","contentDigest")
);

-- CreateIndex
CREATE UNIQUE INDEX "StatusList_organizationId_number_key" ON "StatusList"("organizationId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "StatusListEntry_credentialId_key" ON "StatusListEntry"("credentialId");

-- AddForeignKey
ALTER TABLE "StatusList" ADD CONSTRAINT "StatusList_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StatusListEntry" ADD CONSTRAINT "StatusListEntry_statusListId_fkey" FOREIGN KEY ("statusListId") REFERENCES "StatusList"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StatusListEntry" ADD CONSTRAINT "StatusListEntry_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SignedCredential" ADD CONSTRAINT "SignedCredential_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

