-- AlterTable
ALTER TABLE "Group" ADD COLUMN "language" TEXT;

