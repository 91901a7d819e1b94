-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "customAttributesIndexed" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CustomAttribute" (
    "organizationId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "defined" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustomAttribute_pkey" PRIMARY KEY ("organizationId","tag")
);

-- AddForeignKey
ALTER TABLE "CustomAttribute" ADD CONSTRAINT "CustomAttribute_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

