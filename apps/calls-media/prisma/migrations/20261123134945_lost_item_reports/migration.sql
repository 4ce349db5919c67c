-- CreateTable
CREATE TABLE "lost_item_reports" (
    "call_sid" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "number_id" TEXT NOT NULL,
    "caller" TEXT NOT NULL,
    "caller_name" TEXT NOT NULL DEFAULT '',
    "category" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT '',
    "where_lost" TEXT NOT NULL DEFAULT '',
    "lost_at" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lost_item_reports_pkey" PRIMARY KEY ("call_sid")
);

-- CreateIndex
CREATE INDEX "lost_item_reports_account_id_idx" ON "lost_item_reports"("account_id");
