-- AlterTable
ALTER TABLE "Organization" ADD COLUMN "brandColor" TEXT;
ALTER TABLE "Organization" ADD COLUMN "contactEmail" TEXT;
ALTER TABLE "Organization" ADD COLUMN "linkedinOrganizationId" TEXT;
ALTER TABLE "Organization" ADD COLUMN "senderName" TEXT;

-- AlterTable
ALTER TABLE "EmailOutbox" ADD COLUMN "fromName" TEXT;
ALTER TABLE "EmailOutbox" ADD COLUMN "replyTo" TEXT;

