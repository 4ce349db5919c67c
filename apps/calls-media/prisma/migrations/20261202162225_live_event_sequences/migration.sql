-- DropIndex
DROP INDEX "live_call_events_account_id_id_idx";

-- DropIndex
DROP INDEX "live_call_events_call_id_id_idx";

-- Live events are a transient log (purged an hour after their call ends); ids given before this migration were not
-- in commit order, so they are dropped rather than renumbered.
DELETE FROM "live_call_events";

-- AlterTable
ALTER TABLE "live_call_events" ADD COLUMN     "seq" BIGINT NOT NULL;

-- CreateTable
CREATE TABLE "live_event_sequences" (
    "account_id" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL,

    CONSTRAINT "live_event_sequences_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "live_call_events_call_id_seq_idx" ON "live_call_events"("call_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "live_call_events_account_id_seq_key" ON "live_call_events"("account_id", "seq");
