-- Hand-written (docs/adr/0041-lostfound-categories.md): `category` now keeps the caller's word (`scarf`) and the
-- new `category_class` its vocabulary class (`clothing`). Rows from before only ever stored the class, and the
-- word they were filed with is gone, so the class stays their category and is copied into category_class.

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "category_class" TEXT;
UPDATE "claims" SET "category_class" = "category";
ALTER TABLE "claims" ALTER COLUMN "category_class" SET NOT NULL;

-- AlterTable
ALTER TABLE "found_items" ADD COLUMN     "category_class" TEXT;
UPDATE "found_items" SET "category_class" = "category";
ALTER TABLE "found_items" ALTER COLUMN "category_class" SET NOT NULL;

-- Hand-written: the search vectors add the class, so `q=clothing` still finds a scarf (docs/adr/0043-lostfound-search.md).
-- A generated column cannot be altered: it is dropped (with its GIN index) and added again.
ALTER TABLE "found_items" DROP COLUMN "search";
ALTER TABLE "found_items" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', replace("category", '_', ' ') || ' ' || replace("category_class", '_', ' ')), 'A') ||
    setweight(to_tsvector('english', "description"), 'B') ||
    setweight(to_tsvector('english', "color"), 'C') ||
    setweight(to_tsvector('english', "found_area"), 'D')
) STORED;
CREATE INDEX "found_items_search_idx" ON "found_items" USING GIN ("search");

ALTER TABLE "claims" DROP COLUMN "search";
ALTER TABLE "claims" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', replace("category", '_', ' ') || ' ' || replace("category_class", '_', ' ')), 'A') ||
    setweight(to_tsvector('english', "description"), 'B') ||
    setweight(to_tsvector('english', "color"), 'C') ||
    setweight(to_tsvector('english', "lost_area" || ' ' || "claimant_name"), 'D')
) STORED;
CREATE INDEX "claims_search_idx" ON "claims" USING GIN ("search");

-- CreateIndex
CREATE INDEX "claims_location_id_category_class_id_idx" ON "claims"("location_id", "category_class", "id");

-- CreateIndex
CREATE INDEX "found_items_location_id_category_class_id_idx" ON "found_items"("location_id", "category_class", "id");
