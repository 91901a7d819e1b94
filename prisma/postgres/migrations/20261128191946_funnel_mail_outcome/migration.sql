-- DropIndex
DROP INDEX "EmailOutbox_organizationId_kind_credentialId_status_lastErr_idx";

-- AlterTable
ALTER TABLE "CredentialEngagement" ADD COLUMN     "mail" INTEGER NOT NULL DEFAULT 0;


-- Each credential's email outcome from the emails queued before the column existed (the rule of
-- lib/mail/credential-outcome.ts: delivered 4, bounced 3, failed 2, waiting 1, none 0).
INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "mail")
SELECT o."credentialId", MIN(o."organizationId"), MAX(CASE
    WHEN o."status" = 'sent' THEN 4
    WHEN o."status" = 'failed' AND (o."lastError" LIKE '% SMTP 5__ during RCPT TO' OR o."lastError" LIKE '% SMTP 5__ during DATA') THEN 3
    WHEN o."status" = 'failed' THEN 2
    WHEN o."status" = 'queued' THEN 1
    ELSE 0 END)
FROM "EmailOutbox" o
WHERE o."kind" = 'credential' AND o."credentialId" IS NOT NULL AND o."organizationId" IS NOT NULL
GROUP BY o."credentialId"
ON CONFLICT ("credentialId") DO UPDATE SET "mail" = excluded."mail";
