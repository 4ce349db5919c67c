-- CreateTable
CREATE TABLE "console_password_resets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "console_password_resets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_password_resets_token_hash_key" ON "console_password_resets"("token_hash");

-- CreateIndex
CREATE INDEX "console_password_resets_user_id_idx" ON "console_password_resets"("user_id");
