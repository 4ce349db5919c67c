-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "call_sid" TEXT;

-- AlterTable
ALTER TABLE "locations" ADD COLUMN     "hold_days" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "public_slug" TEXT;

-- Hand-written: every existing location gets a claimant-page slug of 244 random bits (two v4 UUIDs, base64url),
-- before the column becomes NOT NULL. New ones are made by the service (128 random bits, 22 characters).
UPDATE "locations" SET "public_slug" = rtrim(translate(encode(decode(
  replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=');
ALTER TABLE "locations" ALTER COLUMN "public_slug" SET NOT NULL;

-- CreateTable
CREATE TABLE "phone_lines" (
    "number_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "location_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phone_lines_pkey" PRIMARY KEY ("number_id")
);

-- CreateIndex
CREATE INDEX "phone_lines_location_id_idx" ON "phone_lines"("location_id");

-- CreateIndex
CREATE UNIQUE INDEX "claims_call_sid_key" ON "claims"("call_sid");

-- CreateIndex
CREATE UNIQUE INDEX "locations_public_slug_key" ON "locations"("public_slug");

-- AddForeignKey
ALTER TABLE "phone_lines" ADD CONSTRAINT "phone_lines_location_id_fkey" FOREIGN KEY ("location_id") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: Prisma cannot express CHECK constraints. Items leave custody by disposal too (docs/adr/0077);
-- claims come from three sources; a location holds items at least a day.
ALTER TABLE "found_items" DROP CONSTRAINT "found_items_status_check";
ALTER TABLE "found_items" ADD CONSTRAINT "found_items_status_check" CHECK ("status" IN ('stored', 'returned', 'donated', 'disposed'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_source_check" CHECK ("source" IN ('api', 'web', 'phone'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_call_sid_phone_check" CHECK (("call_sid" IS NULL) OR ("source" = 'phone'));
ALTER TABLE "locations" ADD CONSTRAINT "locations_hold_days_check" CHECK ("hold_days" >= 1);
