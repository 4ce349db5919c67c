import { Injectable } from '@nestjs/common';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import {
  LOSTFOUND_PAGE_SIZE,
  type DisposalOutcome,
  type FoundItemStatus,
  type ValueClass,
} from '@switchboard/contracts';
import { OTHER_CATEGORY } from '../categories/category-vocabulary';
import type { FoundItem, TimelineEntry } from '../generated/kysely/database';
import { LostfoundPrisma, type Tx } from '../prisma/lostfound-prisma';
import { listFilters, type ListFilters } from '../search/list-filters';

type Item = Selectable<FoundItem>;

/** A found item as the views need it (dates already `YYYY-MM-DD`; `category_class` is what matching compares, ADR 0053). */
export type FoundItemRow = Pick<
  Item,
  | 'id'
  | 'location_id'
  | 'category'
  | 'category_class'
  | 'description'
  | 'color'
  | 'found_by'
  | 'found_area'
  | 'storage_ref'
  | 'image_url'
  | 'source'
  | 'created_at'
> & { found_date: string; value_class: ValueClass; status: FoundItemStatus };

export type TimelineRow = Pick<Selectable<TimelineEntry>, 'created_at' | 'action' | 'staff_name' | 'note'>;

export type FoundItemDetailRow = FoundItemRow & { photos: string[]; timeline: TimelineRow[] };

export type NewFoundItem = Pick<
  FoundItemRow,
  | 'location_id'
  | 'category'
  | 'category_class'
  | 'value_class'
  | 'description'
  | 'color'
  | 'found_by'
  | 'found_area'
  | 'found_date'
  | 'storage_ref'
  | 'image_url'
> &
  Pick<Item, 'area_key'> & {
    /** More photos, stored after the primary one (`image_url`) in the given order. */
    photo_urls: readonly string[];
  };

const COLUMNS = sql`id, location_id, category, category_class, value_class, description, color, found_by, found_area,
  to_char(found_date, 'YYYY-MM-DD') AS found_date, storage_ref, image_url, status, source, created_at`;

/** Lists count matching items up to this many (docs/adr/0053): beyond, `total_exact` is false and `total` is this. */
export const FOUND_ITEMS_COUNT_BOUND = 1_000;

/** COLUMNS as the match set of a text search carries them (`found_date` is already text there). */
const MATCH_COLUMNS = sql`id, location_id, category, category_class, value_class, description, color, found_by,
  found_area, found_date, storage_ref, image_url, status, source, created_at`;

/** How many eligible items a claim's matching looks at: those found nearest after the loss (docs/adr/0053). */
export const MAX_ELIGIBLE_ITEMS = 2_000;

/**
 * Items whose category, description, colour and area together take at most this many bytes have their search vector
 * in the claim candidates' index (docs/adr/0053): at most about 3.3 bytes of vector per byte of text, well under a
 * btree entry's 2,704 bytes. Also written, as a literal, in that index's migration.
 */
export const MATCH_TEXT_BYTES = 500;

/** The byte length of the texts in an item's search vector, as the claim candidates' indexes' predicates write it. */
const TEXT_BYTES = sql`octet_length(category) + octet_length(description) + octet_length(color) + octet_length(found_area)`;

/** How many stored items are scored for one claim at most (the best by text rank; see the matching ADR). */
export const MAX_ITEM_CANDIDATES = 200;

/** What a claim's candidates are chosen by. */
export type ClaimToMatch = { location_id: number; category_class: string; lost_date: string | null };

/**
 * The statement `candidatesFor` runs (exported for the test that reads its plan), or none when nothing can match: an
 * `other` claim without a word.
 */
export function claimCandidatesStatement(
  claim: ClaimToMatch,
  anyWord: string | undefined,
): RawBuilder<FoundItemRow> | undefined {
  const isOther = claim.category_class === OTHER_CATEGORY;
  if (isOther && !anyWord) return undefined;
  const words = anyWord ? sql`to_tsquery('english', ${anyWord})` : undefined;
  const common = [sql`location_id = ${claim.location_id}`, sql`status = 'stored'`];
  if (claim.lost_date) common.push(sql`found_date >= ${claim.lost_date}::date - 1`);
  // At most MAX_ELIGIBLE_ITEMS are scored (docs/adr/0053): those found nearest after the loss (an item is
  // found in the days after it is lost, and the rule's date point says the same), or without a loss date the
  // latest found. Each branch is read in that order along an index, so it reads the rows it keeps and no more
  // whatever order the items were logged in, and the branches are merged in the same order.
  const direction = claim.lost_date ? sql`ASC` : sql`DESC`;
  const nearest = (date: string) => sql`${sql.ref(date)} ${direction}, id ${direction}`;
  const branch = (conditions: RawBuilder<unknown>[]) =>
    sql`(SELECT id, category_class, found_date AS found_on, search FROM found_items
      WHERE ${sql.join([...common, ...conditions], sql` AND `)}
      ORDER BY ${nearest('found_date')} LIMIT ${MAX_ELIGIBLE_ITEMS})`;
  // Items with short texts are read from an index that carries their search vector (docs/adr/0053: an index-only
  // scan, no heap page per item), by class and date or, for any class, by date; the others by date through the heap.
  // The two text conditions are the indexes' predicates word for word, so the planner can prove them.
  const byTextLength = (conditions: RawBuilder<unknown>[]) => [
    branch([...conditions, sql`${TEXT_BYTES} <= ${sql.lit(MATCH_TEXT_BYTES)}`]),
    branch([...conditions, sql`${TEXT_BYTES} > ${sql.lit(MATCH_TEXT_BYTES)}`]),
  ];
  const branches = isOther
    ? // An `other` claim matches any class, on a shared word.
      byTextLength([sql`search @@ ${words}`])
    : // The claim's class; and `other` items only on a shared word.
      [
        ...byTextLength([sql`category_class = ${claim.category_class}`]),
        ...(words ? byTextLength([sql`category_class = ${OTHER_CATEGORY}`, sql`search @@ ${words}`]) : []),
      ];
  // The best MAX_ITEM_CANDIDATES are chosen on what the index carries; only they are read from the table.
  const rank = words ? sql`ts_rank(search, ${words})` : sql`0::real`;
  return sql<FoundItemRow>`
    WITH eligible AS MATERIALIZED (
      SELECT id, category_class, found_on, search FROM (${sql.join(branches, sql` UNION ALL `)}) AS branches
      ORDER BY ${nearest('found_on')} LIMIT ${MAX_ELIGIBLE_ITEMS}),
    best AS MATERIALIZED (
      SELECT id, category_class = ${claim.category_class} AS same_class, ${rank} AS text_rank FROM eligible
      ORDER BY same_class DESC, text_rank DESC, id DESC LIMIT ${MAX_ITEM_CANDIDATES})
    SELECT ${COLUMNS} FROM best JOIN found_items USING (id)
    ORDER BY best.same_class DESC, best.text_rank DESC, id DESC`;
}

@Injectable()
export class FoundItemsRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  /** Inserts the item with its primary photo and its `logged` custody entry. */
  async insert(tx: Tx, item: NewFoundItem, logNote: string, staffName = 'API'): Promise<FoundItemRow> {
    const rows = (
      await sql<FoundItemRow>`
      INSERT INTO found_items (location_id, category, category_class, value_class, description, color, found_by, found_area,
                               area_key, found_date, storage_ref, image_url, status, source)
      VALUES (${item.location_id}, ${item.category}, ${item.category_class}, ${item.value_class}, ${item.description}, ${item.color},
              ${item.found_by}, ${item.found_area}, ${item.area_key}, ${item.found_date}::date, ${item.storage_ref},
              ${item.image_url}, 'stored', 'api')
      RETURNING ${COLUMNS}`.execute(tx.$kysely())
    ).rows;
    const created = rows[0];
    if (item.image_url)
      await tx.photo.create({ data: { found_item_id: created.id, url: item.image_url, is_primary: true } });
    if (item.photo_urls.length > 0)
      await tx.photo.createMany({
        data: item.photo_urls.map((url) => ({ found_item_id: created.id, url, is_primary: false })),
      });
    await tx.timelineEntry.create({
      data: { found_item_id: created.id, action: 'logged', staff_name: staffName, note: logNote },
    });
    return created;
  }

  async findDetail(locationId: number, id: number): Promise<FoundItemDetailRow | null> {
    const rows = (
      await sql<FoundItemRow>`
      SELECT ${COLUMNS} FROM found_items WHERE id = ${id} AND location_id = ${locationId}`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    if (rows.length === 0) return null;
    const [photos, timeline] = await Promise.all([
      this.prisma.photo.findMany({
        where: { found_item_id: id },
        orderBy: [{ is_primary: 'desc' }, { id: 'asc' }],
        select: { url: true },
      }),
      this.prisma.timelineEntry.findMany({
        where: { found_item_id: id },
        orderBy: { id: 'asc' },
        select: { created_at: true, action: true, staff_name: true, note: true },
      }),
    ]);
    return { ...rows[0], photos: photos.map((photo) => photo.url), timeline };
  }

  /**
   * One page and the total, counted up to FOUND_ITEMS_COUNT_BOUND (docs/adr/0053-lostfound-search-matching-and-texts.md):
   * `exact` is false when more items match, and `total` is then the bound. Without `q`, newest first. With `q`, the
   * best text matches first, ranked among every match when there are at most the bound, else among the bound's worth
   * of most recent matches, so a common word at a location of a million items costs what a thousand matches cost.
   */
  async list(
    locationId: number,
    filters: ListFilters,
    page: number,
  ): Promise<{ rows: FoundItemRow[]; total: number; exact: boolean }> {
    const { where, rank } = listFilters(locationId, filters, { date: 'found_date', area: 'area_key' });
    const offset = (page - 1) * LOSTFOUND_PAGE_SIZE;
    const bound = FOUND_ITEMS_COUNT_BOUND;
    // How many match, up to the bound and one: cheap whichever plan PostgreSQL takes (it stops at bound + 1 rows).
    const probe = sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM found_items WHERE ${where} LIMIT ${bound + 1}) AS t`;
    const statement = rank
      ? // The first bound + 1 matches, in whatever order the cheapest plan finds them: when that is all of them
        // (a rare word), they are the set to rank, read once; when there are more (a common word), the set is the
        // most recent `bound` matches instead, found by walking the newest ids (the second branch runs only then:
        // its one-time filter is false otherwise). Neither case makes PostgreSQL read every match.
        sql<FoundItemRow & { total: number }>`
          WITH first_matches AS MATERIALIZED (
            SELECT ${COLUMNS}, search FROM found_items WHERE ${where} LIMIT ${bound + 1}),
          counted AS (SELECT count(*)::int AS n FROM first_matches),
          matches AS (
            (SELECT ${MATCH_COLUMNS}, search FROM first_matches WHERE (SELECT n FROM counted) <= ${bound})
            UNION ALL
            (SELECT ${COLUMNS}, search FROM found_items WHERE ${where} AND (SELECT n FROM counted) > ${bound}
              ORDER BY id DESC LIMIT ${bound})
          )
          SELECT ${MATCH_COLUMNS}, (SELECT n FROM counted) AS total FROM matches
          ORDER BY ts_rank(search, ${rank}) DESC, id DESC LIMIT ${LOSTFOUND_PAGE_SIZE} OFFSET ${offset}`
      : sql<FoundItemRow & { total: number }>`
          WITH probe AS MATERIALIZED (${probe})
          SELECT ${COLUMNS}, (SELECT n FROM probe) AS total FROM found_items WHERE ${where}
          ORDER BY id DESC LIMIT ${LOSTFOUND_PAGE_SIZE} OFFSET ${offset}`;
    const { rows } = await statement.execute(this.prisma.$kysely());
    // A page past the last has no rows to carry the total: it is counted on its own.
    const counted =
      rows[0]?.total ?? (await sql<{ n: number }>`${probe}`.execute(this.prisma.$kysely())).rows[0]?.n ?? 0;
    return {
      rows: rows.map(({ total: _total, ...row }) => row),
      total: Math.min(counted, bound),
      exact: counted <= bound,
    };
  }

  /**
   * Stored items of the location that could match a claim, for the matching rule to score: the claim's category
   * class (or any, when either side is `other`), not found more than a day before the loss, and sharing the class
   * or a word. Same class first, then best text rank, at most MAX_ITEM_CANDIDATES.
   */
  candidatesFor(tx: Tx, claim: ClaimToMatch, anyWord: string | undefined): Promise<FoundItemRow[]> {
    const statement = claimCandidatesStatement(claim, anyWord);
    return statement ? statement.execute(tx.$kysely()).then(({ rows }) => rows) : Promise.resolve([]);
  }

  /** The item, locked until the transaction ends, when it is at the location. */
  async lock(tx: Tx, locationId: number, id: number): Promise<FoundItemRow | null> {
    const rows = (
      await sql<FoundItemRow>`
      SELECT ${COLUMNS} FROM found_items WHERE id = ${id} AND location_id = ${locationId} FOR UPDATE`.execute(
        tx.$kysely(),
      )
    ).rows;
    return rows[0] ?? null;
  }

  /** Donated or disposed of: the item leaves custody, with its entry on the chain of custody. */
  async markDisposed(tx: Tx, id: number, outcome: DisposalOutcome, staffName: string, note: string): Promise<void> {
    await tx.foundItem.update({ where: { id }, data: { status: outcome } });
    await tx.timelineEntry.create({ data: { found_item_id: id, action: outcome, staff_name: staffName, note } });
  }

  async markReturned(tx: Tx, id: number, note: string, staffName = 'API'): Promise<void> {
    await tx.foundItem.update({ where: { id }, data: { status: 'returned' } });
    await tx.timelineEntry.create({ data: { found_item_id: id, action: 'released', staff_name: staffName, note } });
  }
}
