-- CreateTable
CREATE TABLE "number_agents" (
    "number_id" BIGINT NOT NULL,
    "account_id" TEXT NOT NULL,
    "greeting" TEXT,
    "instructions" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "agent_ref" TEXT,
    "llm_ref" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retry_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "number_agents_pkey" PRIMARY KEY ("number_id")
);

-- CreateIndex
CREATE INDEX "number_agents_status_retry_at_idx" ON "number_agents"("status", "retry_at");

-- CreateIndex
CREATE INDEX "number_agents_agent_ref_idx" ON "number_agents"("agent_ref");

-- Numbers provisioned before agents existed get one with the default settings, pushed to the platform by AgentSync.
INSERT INTO "number_agents" ("number_id", "account_id", "status")
SELECT "id", "account_id", CASE WHEN "status" = 'released' THEN 'released' ELSE 'pending' END FROM "numbers";
