-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "number_states" (
    "number_id" TEXT NOT NULL,
    "version" BIGINT NOT NULL,
    "account_id" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "answering" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "number_states_pkey" PRIMARY KEY ("number_id","version")
);

-- CreateTable
CREATE TABLE "call_reports" (
    "call_sid" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "report" JSONB,
    "recording_key" TEXT,
    "recording_size" INTEGER,
    "recording_etag" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "call_reports_pkey" PRIMARY KEY ("call_sid")
);

-- CreateTable
CREATE TABLE "calls" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "number_id" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "caller" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "duration_sec" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "has_transcript" BOOLEAN NOT NULL,
    "recording_key" TEXT,
    "recording_size" INTEGER,
    "recording_etag" TEXT,
    "recording_content_type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transcript_turns" (
    "call_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "transcript_turns_pkey" PRIMARY KEY ("call_id","position")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "number_states_phone_number_changed_at_idx" ON "number_states"("phone_number", "changed_at");

-- CreateIndex
CREATE INDEX "call_reports_state_received_at_idx" ON "call_reports"("state", "received_at");

-- CreateIndex
CREATE INDEX "call_reports_to_state_idx" ON "call_reports"("to", "state");

-- CreateIndex
CREATE UNIQUE INDEX "calls_seq_key" ON "calls"("seq");

-- CreateIndex
CREATE INDEX "calls_account_id_started_at_seq_idx" ON "calls"("account_id", "started_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "calls_account_id_number_id_started_at_seq_idx" ON "calls"("account_id", "number_id", "started_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "transcript_turns" ADD CONSTRAINT "transcript_turns_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
