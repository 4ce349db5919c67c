-- CreateTable
CREATE TABLE "webhook_number_states" (
    "number_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_number_states_pkey" PRIMARY KEY ("number_id")
);
