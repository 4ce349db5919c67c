-- CreateIndex
CREATE INDEX "found_items_location_id_id_idx" ON "found_items"("location_id", "id");
