-- AlterTable
ALTER TABLE "number_agents" ADD COLUMN     "analysis_fields" JSONB NOT NULL DEFAULT '[]';
