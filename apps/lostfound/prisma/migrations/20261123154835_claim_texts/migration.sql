-- CreateTable
CREATE TABLE "claim_texts" (
    "id" SERIAL NOT NULL,
    "claim_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'sent',
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_texts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "claim_texts_claim_id_id_idx" ON "claim_texts"("claim_id", "id");

-- AddForeignKey
ALTER TABLE "claim_texts" ADD CONSTRAINT "claim_texts_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;
