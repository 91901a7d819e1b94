-- DropIndex
DROP INDEX "WebhookDelivery_status_nextAttemptAt_idx";

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_status_nextAttemptAt_idx" ON "WebhookDelivery"("endpointId", "status", "nextAttemptAt");

