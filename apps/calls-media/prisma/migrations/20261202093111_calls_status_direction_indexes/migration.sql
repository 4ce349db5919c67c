-- CreateIndex
CREATE INDEX "calls_account_id_status_started_at_seq_idx" ON "calls"("account_id", "status", "started_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "calls_account_id_direction_started_at_seq_idx" ON "calls"("account_id", "direction", "started_at" DESC, "seq" DESC);
