-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN "timedOutAt" DATETIME;

