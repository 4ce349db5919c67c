-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "balance_low_since" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "numbers" ADD COLUMN     "webhook_events" TEXT[] DEFAULT ARRAY[]::TEXT[];
