-- CreateIndex
CREATE INDEX "daily_text_counts_day_idx" ON "daily_text_counts"("day");
