-- CreateTable
CREATE TABLE "Organization" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "monthlyIssueQuota" INTEGER,
    "logoMimeType" TEXT,
    "logoData" BLOB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT,
    "emailVerifiedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Membership_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiToken_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Design" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currentRevisionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Design_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Design_currentRevisionId_fkey" FOREIGN KEY ("currentRevisionId") REFERENCES "DesignRevision" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DesignRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "designId" TEXT NOT NULL,
    "documentVersion" INTEGER NOT NULL,
    "document" TEXT NOT NULL,
    "assetIds" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DesignRevision_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DesignAsset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "designId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "byteSize" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "data" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DesignAsset_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Group" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "learningEventUrl" TEXT,
    "legacyDesignShape" BOOLEAN NOT NULL DEFAULT false,
    "expiryAmount" INTEGER,
    "expiryUnit" TEXT,
    "emailSubject" TEXT,
    "emailHtml" TEXT,
    "emailText" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Group_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GroupDesign" (
    "groupId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "designId" TEXT NOT NULL,

    PRIMARY KEY ("groupId", "position"),
    CONSTRAINT "GroupDesign_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GroupDesign_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Recipient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailNormalized" TEXT NOT NULL,
    "nameNormalized" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Recipient_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Credential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "recipientId" TEXT,
    "recipientName" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "issueDate" TEXT NOT NULL,
    "expiryDate" TEXT,
    "expiryDateExplicit" BOOLEAN NOT NULL DEFAULT false,
    "customAttributes" TEXT NOT NULL DEFAULT '{}',
    "issuedAt" DATETIME,
    "sendPending" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Credential_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Credential_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Credential_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "Recipient" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Interaction" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "triggeredBy" TEXT NOT NULL,
    "triggeredAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'api',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Interaction_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Interaction_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PreviewVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "digest" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "designId" TEXT NOT NULL,
    "designRevisionId" TEXT NOT NULL,
    "credentialId" TEXT,
    "values" TEXT NOT NULL,
    "meta" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PreviewVersion_designId_fkey" FOREIGN KEY ("designId") REFERENCES "Design" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PreviewVersion_designRevisionId_fkey" FOREIGN KEY ("designRevisionId") REFERENCES "DesignRevision" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PreviewVersion_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MonthlyUsage" (
    "organizationId" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "issued" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("organizationId", "month"),
    CONSTRAINT "MonthlyUsage_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EmailOutbox" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "credentialId" TEXT,
    "messageId" TEXT NOT NULL,
    "toAddress" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "leaseOwner" TEXT,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "EmailOutbox_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EmailOutbox_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EmailAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "outboxId" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    CONSTRAINT "EmailAttempt_outboxId_fkey" FOREIGN KEY ("outboxId") REFERENCES "EmailOutbox" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Membership_organizationId_idx" ON "Membership"("organizationId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_userId_organizationId_key" ON "Membership"("userId", "organizationId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_prefix_key" ON "ApiToken"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_organizationId_createdAt_idx" ON "ApiToken"("organizationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Design_currentRevisionId_key" ON "Design"("currentRevisionId");

-- CreateIndex
CREATE INDEX "Design_organizationId_createdAt_id_idx" ON "Design"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "DesignRevision_designId_createdAt_idx" ON "DesignRevision"("designId", "createdAt");

-- CreateIndex
CREATE INDEX "DesignAsset_designId_name_idx" ON "DesignAsset"("designId", "name");

-- CreateIndex
CREATE INDEX "Group_organizationId_createdAt_id_idx" ON "Group"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "GroupDesign_designId_idx" ON "GroupDesign"("designId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupDesign_groupId_designId_key" ON "GroupDesign"("groupId", "designId");

-- CreateIndex
CREATE INDEX "Recipient_organizationId_nameNormalized_idx" ON "Recipient"("organizationId", "nameNormalized");

-- CreateIndex
CREATE UNIQUE INDEX "Recipient_organizationId_emailNormalized_key" ON "Recipient"("organizationId", "emailNormalized");

-- CreateIndex
CREATE UNIQUE INDEX "Credential_publicId_key" ON "Credential"("publicId");

-- CreateIndex
CREATE INDEX "Credential_organizationId_createdAt_id_idx" ON "Credential"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_updatedAt_id_idx" ON "Credential"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_issueDate_id_idx" ON "Credential"("organizationId", "issueDate", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_expiryDate_id_idx" ON "Credential"("organizationId", "expiryDate", "id");

-- CreateIndex
CREATE INDEX "Credential_organizationId_status_createdAt_idx" ON "Credential"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Credential_organizationId_groupId_createdAt_idx" ON "Credential"("organizationId", "groupId", "createdAt");

-- CreateIndex
CREATE INDEX "Credential_recipientId_idx" ON "Credential"("recipientId");

-- CreateIndex
CREATE INDEX "Credential_status_issueDate_idx" ON "Credential"("status", "issueDate");

-- CreateIndex
CREATE INDEX "Interaction_credentialId_triggeredAt_id_idx" ON "Interaction"("credentialId", "triggeredAt", "id");

-- CreateIndex
CREATE INDEX "Interaction_organizationId_triggeredAt_idx" ON "Interaction"("organizationId", "triggeredAt");

-- CreateIndex
CREATE UNIQUE INDEX "PreviewVersion_digest_key" ON "PreviewVersion"("digest");

-- CreateIndex
CREATE INDEX "PreviewVersion_credentialId_idx" ON "PreviewVersion"("credentialId");

-- CreateIndex
CREATE INDEX "PreviewVersion_designId_idx" ON "PreviewVersion"("designId");

-- CreateIndex
CREATE UNIQUE INDEX "EmailOutbox_messageId_key" ON "EmailOutbox"("messageId");

-- CreateIndex
CREATE INDEX "EmailOutbox_status_nextAttemptAt_idx" ON "EmailOutbox"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "EmailOutbox_credentialId_idx" ON "EmailOutbox"("credentialId");

-- CreateIndex
CREATE INDEX "EmailAttempt_outboxId_startedAt_idx" ON "EmailAttempt"("outboxId", "startedAt");

