-- AlterTable
ALTER TABLE "EmailOutbox" ADD COLUMN "composition" TEXT;

