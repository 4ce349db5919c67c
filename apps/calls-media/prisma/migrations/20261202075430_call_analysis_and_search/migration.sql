-- DropIndex
DROP INDEX "calls_daily_usage_idx";

-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "custom_analysis" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "search" tsvector,
ADD COLUMN     "sentiment" TEXT NOT NULL DEFAULT 'unknown',
ADD COLUMN     "successful" BOOLEAN,
ADD COLUMN     "summary" TEXT;

-- CreateTable
CREATE TABLE "number_analysis_fields" (
    "number_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "fields" JSONB NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "number_analysis_fields_pkey" PRIMARY KEY ("number_id")
);

-- CreateIndex
CREATE INDEX "calls_account_id_caller_started_at_seq_idx" ON "calls"("account_id", "caller", "started_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "calls_account_id_outcome_started_at_seq_idx" ON "calls"("account_id", "outcome", "started_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "calls_stats_idx" ON "calls"("account_id", "started_at", "duration_sec", "outcome", "sentiment", "successful", "number_id");

-- CreateIndex
CREATE INDEX "calls_search_idx" ON "calls" USING GIN ("search");
