-- AlterTable
ALTER TABLE "console_sessions" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'live';
