-- AlterTable
ALTER TABLE "number_orders" ADD COLUMN     "webhook_events" TEXT[] DEFAULT ARRAY[]::TEXT[];
