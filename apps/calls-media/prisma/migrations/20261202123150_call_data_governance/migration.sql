-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "recording_deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "recording_deleted_by" TEXT,
ADD COLUMN     "transcript_deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "transcript_deleted_by" TEXT;

-- CreateTable
CREATE TABLE "account_data_settings" (
    "account_id" TEXT NOT NULL,
    "storage_mode" TEXT NOT NULL DEFAULT 'everything',
    "recordings_days" INTEGER,
    "transcripts_days" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_data_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "pending_object_deletions" (
    "key" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "claimed_until" TIMESTAMPTZ(3),

    CONSTRAINT "pending_object_deletions_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "pending_object_deletions_queued_at_idx" ON "pending_object_deletions"("queued_at");

-- CreateIndex
CREATE INDEX "calls_recording_retention_idx" ON "calls"("account_id", "started_at") WHERE (recording_key IS NOT NULL);

-- CreateIndex
CREATE INDEX "calls_transcript_retention_idx" ON "calls"("account_id", "started_at") WHERE (transcript_deleted_at IS NULL AND (has_transcript OR summary IS NOT NULL));
