-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "attempt_base" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "body" TEXT,
ADD COLUMN     "detached" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "event_type" TEXT NOT NULL DEFAULT 'call.completed';

-- CreateIndex
CREATE INDEX "webhook_deliveries_number_id_created_at_event_id_idx" ON "webhook_deliveries"("number_id", "created_at" DESC, "event_id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_detached_status_next_attempt_at_idx" ON "webhook_deliveries"("detached", "status", "next_attempt_at");
