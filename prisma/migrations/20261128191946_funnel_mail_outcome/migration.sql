-- DropIndex
DROP INDEX "EmailOutbox_organizationId_kind_credentialId_status_lastError_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CredentialEngagement" (
    "credentialId" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "opened" BOOLEAN NOT NULL DEFAULT false,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "mail" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "CredentialEngagement_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_CredentialEngagement" ("credentialId", "opened", "organizationId", "shared", "verified") SELECT "credentialId", "opened", "organizationId", "shared", "verified" FROM "CredentialEngagement";
DROP TABLE "CredentialEngagement";
ALTER TABLE "new_CredentialEngagement" RENAME TO "CredentialEngagement";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


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
