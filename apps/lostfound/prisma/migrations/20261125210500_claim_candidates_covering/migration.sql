-- Hand-written (docs/adr/0097-claim-candidates-from-the-index.md): Prisma cannot express partial indexes or
-- INCLUDE columns. A claim's candidates are chosen from the index alone (index-only scans: no heap page per item).
-- The stored items whose texts are short enough that their search vector always fits a btree entry carry it in
-- two indexes: by class and found date (a claim of a known class), by found date (an `other` claim, any class);
-- the rest (texts over MATCH_TEXT_BYTES in all, rare) are read by found date through the heap. The predicates must
-- stay the same expressions as `claimCandidatesStatement` in found-items.repository.ts writes.

-- DropIndex
DROP INDEX "found_items_location_id_category_class_found_date_id_idx";

-- CreateIndex
CREATE INDEX "found_items_claim_candidates_idx" ON "found_items"("location_id", "category_class", "found_date", "id")
  INCLUDE ("search")
  WHERE "status" = 'stored'
    AND octet_length("category") + octet_length("description") + octet_length("color") + octet_length("found_area") <= 500;

-- CreateIndex
CREATE INDEX "found_items_claim_candidates_by_date_idx" ON "found_items"("location_id", "found_date", "id")
  INCLUDE ("category_class", "search")
  WHERE "status" = 'stored'
    AND octet_length("category") + octet_length("description") + octet_length("color") + octet_length("found_area") <= 500;

-- CreateIndex
CREATE INDEX "found_items_claim_candidates_long_idx" ON "found_items"("location_id", "found_date", "id")
  WHERE "status" = 'stored'
    AND octet_length("category") + octet_length("description") + octet_length("color") + octet_length("found_area") > 500;
