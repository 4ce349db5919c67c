-- AlterTable
ALTER TABLE "number_states" ADD COLUMN     "max_call_minutes" INTEGER;

-- CreateTable
CREATE TABLE "live_call_events" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "live_call_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulated_live_calls" (
    "call_sid" TEXT NOT NULL,
    "plan" JSONB NOT NULL,
    "next_step" INTEGER NOT NULL DEFAULT 0,
    "next_at" TIMESTAMPTZ(3) NOT NULL,
    "interval_ms" INTEGER NOT NULL,
    "leased_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "simulated_live_calls_pkey" PRIMARY KEY ("call_sid")
);

-- CreateIndex
CREATE INDEX "live_call_events_account_id_id_idx" ON "live_call_events"("account_id", "id");

-- CreateIndex
CREATE INDEX "live_call_events_call_id_id_idx" ON "live_call_events"("call_id", "id");

-- CreateIndex
CREATE INDEX "live_call_events_at_idx" ON "live_call_events"("at");

-- CreateIndex
CREATE INDEX "simulated_live_calls_leased_until_idx" ON "simulated_live_calls"("leased_until");

-- CreateIndex
CREATE INDEX "calls_in_progress_idx" ON "calls"("account_id", "started_at") WHERE (status = 'in_progress');
