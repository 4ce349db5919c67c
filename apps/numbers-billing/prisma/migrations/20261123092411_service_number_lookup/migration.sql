-- CreateIndex
CREATE INDEX "numbers_phone_number_idx" ON "numbers"("phone_number");
