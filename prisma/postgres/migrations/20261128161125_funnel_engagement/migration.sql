-- CreateTable
CREATE TABLE "CredentialEngagement" (
    "credentialId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "opened" BOOLEAN NOT NULL DEFAULT false,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "verified" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "CredentialEngagement_pkey" PRIMARY KEY ("credentialId")
);

-- CreateIndex
CREATE INDEX "Credential_organizationId_issuedAt_groupId_recipientId_id_idx" ON "Credential"("organizationId", "issuedAt", "groupId", "recipientId", "id");

-- CreateIndex
CREATE INDEX "EmailOutbox_organizationId_kind_credentialId_status_lastErr_idx" ON "EmailOutbox"("organizationId", "kind", "credentialId", "status", "lastError");

-- AddForeignKey
ALTER TABLE "CredentialEngagement" ADD CONSTRAINT "CredentialEngagement_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Flags from the events recorded before this table existed.
INSERT INTO "CredentialEngagement" ("credentialId", "organizationId", "opened", "shared", "verified")
SELECT "credentialId", MIN("organizationId"),
  BOOL_OR("eventType" = 'credential_viewed' AND "triggeredBy" = 'recipient'),
  BOOL_OR("eventType" LIKE 'credential\_shared\_to\_%' ESCAPE '\' OR "eventType" = 'credential_added_to_linkedin_profile'),
  BOOL_OR("eventType" = 'credential_verified' AND "triggeredBy" = 'guest')
FROM "Interaction"
GROUP BY "credentialId";
