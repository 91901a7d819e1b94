-- CreateTable
CREATE TABLE "CustomAttribute" (
    "organizationId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "defined" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("organizationId", "tag"),
    CONSTRAINT "CustomAttribute_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (SQLite adds a column with a constant default in place; no need to copy the table)
ALTER TABLE "Organization" ADD COLUMN "customAttributesIndexed" BOOLEAN NOT NULL DEFAULT false;
