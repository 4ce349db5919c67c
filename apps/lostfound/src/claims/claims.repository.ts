import { Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import { LOSTFOUND_PAGE_SIZE, type ClaimSource, type ClaimStatus, type ValueClass } from '@switchboard/contracts';
import { OTHER_CATEGORY } from '../categories/category-vocabulary';
import type { ClaimCandidates } from '../found-items/claim-candidates.port';
import type { TimelineRow } from '../found-items/found-items.repository';
import type { Claim } from '../generated/kysely/database';
import { LostfoundPrisma, type Tx } from '../prisma/lostfound-prisma';
import { listFilters, type ListFilters } from '../search/list-filters';

type StoredClaim = Selectable<Claim>;

/** A claim as the views need it (`lost_date` as `YYYY-MM-DD`; `category_class` is what matching compares, ADR 0053). */
export type ClaimRow = Pick<
  StoredClaim,
  | 'id'
  | 'location_id'
  | 'claimant_name'
  | 'claimant_phone'
  | 'category'
  | 'category_class'
  | 'description'
  | 'color'
  | 'lost_area'
  | 'image_url'
  | 'created_at'
> & { lost_date: string | null; value_class: Exclude<ValueClass, 'urgent'>; status: ClaimStatus; source: ClaimSource };

export type ClaimListRow = ClaimRow & { has_match: boolean };

type ClaimDetailColumns = ClaimListRow & Pick<StoredClaim, 'claimant_email' | 'proof_note'>;

export type ClaimDetailRow = ClaimDetailColumns & {
  photos: string[];
  timeline: TimelineRow[];
  texts: { body: string; sent_at: Date }[];
};

export type NewClaim = Pick<
  ClaimRow,
  | 'location_id'
  | 'claimant_name'
  | 'claimant_phone'
  | 'category'
  | 'category_class'
  | 'value_class'
  | 'description'
  | 'color'
  | 'lost_area'
  | 'lost_date'
  | 'image_url'
> &
  Pick<StoredClaim, 'claimant_email' | 'area_key' | 'proof_note'> & {
    source: ClaimSource;
    /** The call a phone report came from: a second claim for it is not inserted. */
    call_sid: string | null;
  };

/** Who the `filed` timeline entry names, and its note, per source. */
const FILED_BY: Record<ClaimSource, { staff_name: string; note: string }> = {
  api: { staff_name: 'API', note: 'Filed through the API.' },
  web: { staff_name: 'Claimant page', note: 'Filed by the claimant on the public claim page.' },
  phone: { staff_name: 'Phone agent', note: "Taken on the phone by the number's agent." },
};

const COLUMNS = sql`id, location_id, claimant_name, claimant_phone, category, category_class, value_class, description, color,
  lost_area, to_char(lost_date, 'YYYY-MM-DD') AS lost_date, image_url, status, source, created_at`;

/** A claim has a match while an item it matched is still in storage. */
const HAS_MATCH = sql`EXISTS (
  SELECT 1 FROM claim_matches m JOIN found_items i ON i.id = m.found_item_id
   WHERE m.claim_id = claims.id AND i.status = 'stored') AS has_match`;

/** How many open claims are scored for one new item at most. */
export const MAX_CLAIM_CANDIDATES = 200;

@Injectable()
export class ClaimsRepository implements ClaimCandidates {
  constructor(private readonly prisma: LostfoundPrisma) {}

  /**
   * Inserts the claim with its primary photo and its `filed` entry. Null when a claim of the same call is already
   * there (`call_sid` is unique; the insert is the check, so two deliveries of one report cannot both insert).
   */
  async insert(tx: Tx, claim: NewClaim): Promise<ClaimRow | null> {
    const rows = (
      await sql<ClaimRow>`
      INSERT INTO claims (location_id, claimant_name, claimant_phone, claimant_email, category, category_class, value_class,
                          description, color, lost_area, area_key, lost_date, proof_note, image_url, status, source, call_sid)
      VALUES (${claim.location_id}, ${claim.claimant_name}, ${claim.claimant_phone}, ${claim.claimant_email},
              ${claim.category}, ${claim.category_class}, ${claim.value_class}, ${claim.description}, ${claim.color}, ${claim.lost_area},
              ${claim.area_key}, ${claim.lost_date}::date, ${claim.proof_note}, ${claim.image_url}, 'open', ${claim.source}, ${claim.call_sid})
      ON CONFLICT (call_sid) DO NOTHING
      RETURNING ${COLUMNS}`.execute(tx.$kysely())
    ).rows;
    const created = rows[0];
    if (!created) return null;
    if (claim.image_url)
      await tx.photo.create({ data: { claim_id: created.id, url: claim.image_url, is_primary: true } });
    const filed = FILED_BY[claim.source];
    const note = claim.call_sid ? `${filed.note} Call ${claim.call_sid}.` : filed.note;
    await tx.timelineEntry.create({
      data: { claim_id: created.id, action: 'filed', staff_name: filed.staff_name, note },
    });
    return created;
  }

  /** Whether a claim was already filed for this call. */
  async existsForCall(callSid: string): Promise<boolean> {
    return (await this.prisma.claim.count({ where: { call_sid: callSid } })) > 0;
  }

  async exists(locationId: number, id: number): Promise<boolean> {
    return (await this.prisma.claim.count({ where: { id, location_id: locationId } })) > 0;
  }

  async findDetail(locationId: number, id: number): Promise<ClaimDetailRow | null> {
    const rows = (
      await sql<ClaimListRow & { claimant_email: string; proof_note: string }>`
      SELECT ${COLUMNS}, claimant_email, proof_note, ${HAS_MATCH} FROM claims WHERE id = ${id} AND location_id = ${locationId}`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    if (rows.length === 0) return null;
    const [photos, timeline, texts] = await Promise.all([
      this.prisma.photo.findMany({
        where: { claim_id: id },
        orderBy: [{ is_primary: 'desc' }, { id: 'asc' }],
        select: { url: true },
      }),
      this.prisma.timelineEntry.findMany({
        where: { claim_id: id },
        orderBy: { id: 'asc' },
        select: { created_at: true, action: true, staff_name: true, note: true },
      }),
      this.prisma.claimText.findMany({
        where: { claim_id: id, status: 'sent' },
        orderBy: { id: 'asc' },
        select: { body: true, sent_at: true },
      }),
    ]);
    return { ...rows[0], photos: photos.map((photo) => photo.url), timeline, texts };
  }

  async list(locationId: number, filters: ListFilters, page: number): Promise<{ rows: ClaimListRow[]; total: number }> {
    const { where, rank } = listFilters(locationId, filters, { date: 'lost_date', area: 'area_key' });
    const order = rank ? sql`ts_rank(search, ${rank}) DESC, id DESC` : sql`id DESC`;
    const [rows, counted] = await Promise.all([
      sql<ClaimListRow>`
        SELECT ${COLUMNS}, ${HAS_MATCH} FROM claims WHERE ${where} ORDER BY ${order}
        LIMIT ${LOSTFOUND_PAGE_SIZE} OFFSET ${(page - 1) * LOSTFOUND_PAGE_SIZE}`
        .execute(this.prisma.$kysely())
        .then(({ rows }) => rows),
      sql<{ total: number }>`SELECT count(*)::int AS total FROM claims WHERE ${where}`
        .execute(this.prisma.$kysely())
        .then(({ rows }) => rows),
    ]);
    return { rows, total: counted[0]?.total ?? 0 };
  }

  /**
   * Open claims of the location that a new item could match: the item's category class (any, when either side is
   * `other`), not lost more than a day after the item was found, sharing the class or a word.
   */
  candidatesFor(
    tx: Tx,
    item: { location_id: number; category_class: string; found_date: string },
    anyWord: string | undefined,
  ): Promise<ClaimRow[]> {
    const isOther = item.category_class === OTHER_CATEGORY;
    if (isOther && !anyWord) return Promise.resolve([]);
    const words = anyWord ? sql`to_tsquery('english', ${anyWord})` : undefined;
    const conditions = [sql`location_id = ${item.location_id}`, sql`status = 'open'`];
    if (!isOther) conditions.push(sql`category_class IN (${item.category_class}, ${OTHER_CATEGORY})`);
    conditions.push(sql`(lost_date IS NULL OR lost_date <= ${item.found_date}::date + 1)`);
    if (isOther) conditions.push(sql`search @@ ${words}`);
    else if (words) conditions.push(sql`(category_class = ${item.category_class} OR search @@ ${words})`);
    else conditions.push(sql`category_class = ${item.category_class}`);
    // Without a word (only a category; "it"; an emoji) the category alone ranks: no constant in ORDER BY, where
    // PostgreSQL reads an integer as a column position (`ORDER BY 0` fails).
    const order = [sql`(category_class = ${item.category_class}) DESC`];
    if (words) order.push(sql`ts_rank(search, ${words}) DESC`);
    order.push(sql`id DESC`);
    return sql<ClaimRow>`
      SELECT ${COLUMNS} FROM claims WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY ${sql.join(order)}
      LIMIT ${MAX_CLAIM_CANDIDATES}`
      .execute(tx.$kysely())
      .then(({ rows }) => rows);
  }

  async lock(tx: Tx, locationId: number, id: number): Promise<ClaimRow | null> {
    const rows = (
      await sql<ClaimRow>`
      SELECT ${COLUMNS} FROM claims WHERE id = ${id} AND location_id = ${locationId} FOR UPDATE`.execute(tx.$kysely())
    ).rows;
    return rows[0] ?? null;
  }

  async markReunited(tx: Tx, id: number, note: string, staffName = 'API'): Promise<void> {
    await tx.claim.update({ where: { id }, data: { status: 'reunited' } });
    await tx.timelineEntry.create({ data: { claim_id: id, action: 'reunited', staff_name: staffName, note } });
  }
}
