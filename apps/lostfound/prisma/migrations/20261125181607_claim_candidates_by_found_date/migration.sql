-- DropIndex
DROP INDEX "found_items_location_id_category_class_id_idx";

-- CreateIndex
CREATE INDEX "found_items_location_id_category_class_found_date_id_idx" ON "found_items"("location_id", "category_class", "found_date", "id");
