-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "brandColor" TEXT,
ADD COLUMN     "contactEmail" TEXT,
ADD COLUMN     "linkedinOrganizationId" TEXT,
ADD COLUMN     "senderName" TEXT;

-- AlterTable
ALTER TABLE "EmailOutbox" ADD COLUMN     "fromName" TEXT,
ADD COLUMN     "replyTo" TEXT;

