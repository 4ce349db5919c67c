-- Created by tools/prisma/create-migration.mjs, then edited by hand where marked "Hand-written".

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "locations" (
    "id" SERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lostfound_enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "locations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "found_items" (
    "id" SERIAL NOT NULL,
    "location_id" INTEGER NOT NULL,
    "category" TEXT NOT NULL,
    "value_class" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT '',
    "found_by" TEXT NOT NULL DEFAULT '',
    "found_area" TEXT NOT NULL DEFAULT '',
    "area_key" TEXT NOT NULL DEFAULT '',
    "found_date" DATE NOT NULL,
    "storage_ref" TEXT NOT NULL DEFAULT '',
    "image_url" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'stored',
    "source" TEXT NOT NULL DEFAULT 'api',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Hand-written: Prisma cannot express generated columns (docs/adr/0043-lostfound-search.md).
    "search" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', replace("category", '_', ' ')), 'A') ||
        setweight(to_tsvector('english', "description"), 'B') ||
        setweight(to_tsvector('english', "color"), 'C') ||
        setweight(to_tsvector('english', "found_area"), 'D')
    ) STORED,

    CONSTRAINT "found_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claims" (
    "id" SERIAL NOT NULL,
    "location_id" INTEGER NOT NULL,
    "claimant_name" TEXT NOT NULL,
    "claimant_phone" TEXT NOT NULL,
    "claimant_email" TEXT NOT NULL DEFAULT '',
    "category" TEXT NOT NULL,
    "value_class" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "color" TEXT NOT NULL DEFAULT '',
    "lost_area" TEXT NOT NULL DEFAULT '',
    "area_key" TEXT NOT NULL DEFAULT '',
    "lost_date" DATE,
    "proof_note" TEXT NOT NULL DEFAULT '',
    "image_url" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'open',
    "source" TEXT NOT NULL DEFAULT 'api',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Hand-written: Prisma cannot express generated columns (docs/adr/0043-lostfound-search.md).
    "search" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', replace("category", '_', ' ')), 'A') ||
        setweight(to_tsvector('english', "description"), 'B') ||
        setweight(to_tsvector('english', "color"), 'C') ||
        setweight(to_tsvector('english', "lost_area" || ' ' || "claimant_name"), 'D')
    ) STORED,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "photos" (
    "id" SERIAL NOT NULL,
    "found_item_id" INTEGER,
    "claim_id" INTEGER,
    "url" TEXT NOT NULL,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "photos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timeline_entries" (
    "id" SERIAL NOT NULL,
    "found_item_id" INTEGER,
    "claim_id" INTEGER,
    "action" TEXT NOT NULL,
    "staff_name" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "timeline_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_matches" (
    "id" SERIAL NOT NULL,
    "claim_id" INTEGER NOT NULL,
    "found_item_id" INTEGER NOT NULL,
    "score" INTEGER NOT NULL,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "notified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_matches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulated_sms" (
    "id" SERIAL NOT NULL,
    "to" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulated_sms_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "locations_account_id_idx" ON "locations"("account_id");

-- CreateIndex
CREATE INDEX "found_items_location_id_status_id_idx" ON "found_items"("location_id", "status", "id");

-- CreateIndex
CREATE INDEX "found_items_location_id_category_id_idx" ON "found_items"("location_id", "category", "id");

-- CreateIndex
CREATE INDEX "found_items_location_id_area_key_idx" ON "found_items"("location_id", "area_key");

-- CreateIndex
CREATE INDEX "found_items_location_id_found_date_idx" ON "found_items"("location_id", "found_date");

-- CreateIndex
CREATE INDEX "found_items_search_idx" ON "found_items" USING GIN ("search");

-- CreateIndex
CREATE INDEX "claims_location_id_status_id_idx" ON "claims"("location_id", "status", "id");

-- CreateIndex
CREATE INDEX "claims_location_id_category_id_idx" ON "claims"("location_id", "category", "id");

-- CreateIndex
CREATE INDEX "claims_location_id_area_key_idx" ON "claims"("location_id", "area_key");

-- CreateIndex
CREATE INDEX "claims_location_id_lost_date_idx" ON "claims"("location_id", "lost_date");

-- CreateIndex
CREATE INDEX "claims_search_idx" ON "claims" USING GIN ("search");

-- CreateIndex
CREATE INDEX "photos_found_item_id_idx" ON "photos"("found_item_id");

-- CreateIndex
CREATE INDEX "photos_claim_id_idx" ON "photos"("claim_id");

-- CreateIndex
CREATE INDEX "timeline_entries_found_item_id_id_idx" ON "timeline_entries"("found_item_id", "id");

-- CreateIndex
CREATE INDEX "timeline_entries_claim_id_id_idx" ON "timeline_entries"("claim_id", "id");

-- CreateIndex
CREATE INDEX "claim_matches_found_item_id_idx" ON "claim_matches"("found_item_id");

-- CreateIndex
CREATE INDEX "claim_matches_notify_notified_at_idx" ON "claim_matches"("notify", "notified_at");

-- CreateIndex
CREATE UNIQUE INDEX "claim_matches_claim_id_found_item_id_key" ON "claim_matches"("claim_id", "found_item_id");

-- CreateIndex
CREATE INDEX "simulated_sms_to_sent_at_idx" ON "simulated_sms"("to", "sent_at");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "found_items" ADD CONSTRAINT "found_items_location_id_fkey" FOREIGN KEY ("location_id") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claims" ADD CONSTRAINT "claims_location_id_fkey" FOREIGN KEY ("location_id") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "photos" ADD CONSTRAINT "photos_found_item_id_fkey" FOREIGN KEY ("found_item_id") REFERENCES "found_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "photos" ADD CONSTRAINT "photos_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timeline_entries" ADD CONSTRAINT "timeline_entries_found_item_id_fkey" FOREIGN KEY ("found_item_id") REFERENCES "found_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timeline_entries" ADD CONSTRAINT "timeline_entries_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_matches" ADD CONSTRAINT "claim_matches_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_matches" ADD CONSTRAINT "claim_matches_found_item_id_fkey" FOREIGN KEY ("found_item_id") REFERENCES "found_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: Prisma cannot express CHECK constraints. The states, classes and owners the code relies on.
ALTER TABLE "found_items" ADD CONSTRAINT "found_items_status_check" CHECK ("status" IN ('stored', 'returned'));
ALTER TABLE "found_items" ADD CONSTRAINT "found_items_value_class_check" CHECK ("value_class" IN ('high', 'low', 'urgent'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_status_check" CHECK ("status" IN ('open', 'reunited'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_value_class_check" CHECK ("value_class" IN ('high', 'low'));
ALTER TABLE "photos" ADD CONSTRAINT "photos_one_owner_check" CHECK (("found_item_id" IS NULL) <> ("claim_id" IS NULL));
ALTER TABLE "timeline_entries" ADD CONSTRAINT "timeline_entries_one_owner_check" CHECK (("found_item_id" IS NULL) <> ("claim_id" IS NULL));
