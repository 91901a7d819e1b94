-- CreateTable
CREATE TABLE "WalletProfile" (
    "emailNormalized" TEXT NOT NULL PRIMARY KEY,
    "handle" TEXT,
    "displayName" TEXT,
    "public" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "WalletProfile_handle_key" ON "WalletProfile"("handle");

