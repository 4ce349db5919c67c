import { ServiceError } from '@switchboard/contracts';
import { sql, type RawBuilder } from 'kysely';
import { normalizeTerm } from '../categories/category-vocabulary';
import { searchTsQuery } from './search-query';

/** The list filters of spec part 4, as a list request carries them. */
export interface ListFilters {
  status?: string;
  category?: string;
  area?: string;
  from?: string;
  to?: string;
  q?: string;
}

export interface ListWhere {
  where: RawBuilder<unknown>;
  /** The tsquery to rank by, when `q` has a searchable word. */
  rank?: RawBuilder<unknown>;
}

/**
 * The WHERE clause of a found-item or claim list (docs/adr/0053-lostfound-search-matching-and-texts.md):
 * - `status`: exact; `category`: the category as the caller wrote it, normalised (`Scarf` finds `scarf`, not `hat`);
 * - `area`: the area compared case- and space-insensitively (an index column, `area_key`);
 * - `from`/`to`: inclusive days over `found_date` (items) or `lost_date` (claims; a claim without one is left out);
 * - `q`: full-text search over the generated `search` column (GIN index), every word as a prefix.
 * A `q` with no searchable word (only punctuation or stop words) filters nothing.
 */
export function listFilters(
  locationId: number,
  filters: ListFilters,
  columns: { date: string; area: string },
): ListWhere {
  if (filters.from && filters.to && filters.from > filters.to) {
    throw new ServiceError('invalid_request', 'from must be on or before to.');
  }
  const conditions = [sql`location_id = ${locationId}`];
  if (filters.status) conditions.push(sql`status = ${filters.status}`);
  // The category as stored: the caller's word, normalised (`scarf` lists scarves, not every piece of clothing).
  const category = normalizeTerm(filters.category ?? '');
  if (category) conditions.push(sql`category = ${category}`);
  if (filters.area !== undefined && normalizeTerm(filters.area)) {
    conditions.push(sql`${sql.raw(columns.area)} = ${normalizeTerm(filters.area)}`);
  }
  if (filters.from) conditions.push(sql`${sql.raw(columns.date)} >= ${filters.from}::date`);
  if (filters.to) conditions.push(sql`${sql.raw(columns.date)} <= ${filters.to}::date`);
  const tsquery = searchTsQuery(filters.q);
  let rank: RawBuilder<unknown> | undefined;
  if (tsquery) {
    rank = sql`to_tsquery('english', ${tsquery})`;
    conditions.push(sql`search @@ ${rank}`);
  }
  return { where: sql.join(conditions, sql` AND `), rank };
}
