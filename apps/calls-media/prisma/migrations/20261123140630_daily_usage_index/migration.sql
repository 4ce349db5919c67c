-- CreateIndex
CREATE INDEX "calls_daily_usage_idx" ON "calls"("account_id", "started_at", "duration_sec");
