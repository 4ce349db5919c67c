-- AlterTable
ALTER TABLE "number_orders" ADD COLUMN     "max_call_minutes" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "numbers" ADD COLUMN     "max_call_minutes" INTEGER NOT NULL DEFAULT 60;
