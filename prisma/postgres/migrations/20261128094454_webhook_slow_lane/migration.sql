-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "timedOutAt" TIMESTAMP(3);

