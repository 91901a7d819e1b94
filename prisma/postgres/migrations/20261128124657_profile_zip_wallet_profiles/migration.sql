-- CreateTable
CREATE TABLE "WalletProfile" (
    "emailNormalized" TEXT NOT NULL,
    "handle" TEXT,
    "displayName" TEXT,
    "public" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WalletProfile_pkey" PRIMARY KEY ("emailNormalized")
);

-- CreateIndex
CREATE UNIQUE INDEX "WalletProfile_handle_key" ON "WalletProfile"("handle");

