-- Created by tools/prisma/create-migration.mjs, then edited by hand where marked "Hand-written".
-- Texting limits (docs/adr/0053-lostfound-texting-limits.md): existing locations get the default countries, US and CA,
-- through the column default, and start with no texts counted.
-- AlterTable
ALTER TABLE "locations" ADD COLUMN     "sms_countries" TEXT[] DEFAULT ARRAY['US', 'CA']::TEXT[];

-- CreateTable
CREATE TABLE "daily_text_counts" (
    "scope" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "texts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_text_counts_pkey" PRIMARY KEY ("scope","subject","day")
);

-- Hand-written: Prisma cannot express CHECK constraints. The two kinds of count the code keeps.
ALTER TABLE "daily_text_counts" ADD CONSTRAINT "daily_text_counts_scope_check" CHECK ("scope" IN ('account', 'phone'));
