import { Injectable } from '@nestjs/common';
import { LOSTFOUND_PAGE_SIZE, type ClaimSource, type ClaimStatus, type ValueClass } from '@switchboard/contracts';
import { OTHER_CATEGORY } from '../categories/category-vocabulary';
import type { ClaimCandidates } from '../found-items/claim-candidates.port';
import type { TimelineRow } from '../found-items/found-items.repository';
import { LostfoundPrisma, Prisma, type Tx } from '../prisma/lostfound-prisma';
import { listFilters, type ListFilters } from '../search/list-filters';

export interface ClaimRow {
  id: number;
  location_id: number;
  claimant_name: string;
  claimant_phone: string;
  category: string;
  /** The category's vocabulary class: what matching compares (ADR 0041). */
  category_class: string;
  value_class: Exclude<ValueClass, 'urgent'>;
  description: string;
  color: string;
  lost_area: string;
  lost_date: string | null;
  image_url: string;
  status: ClaimStatus;
  source: ClaimSource;
  created_at: Date;
}

export interface ClaimListRow extends ClaimRow {
  has_match: boolean;
}

export interface ClaimDetailRow extends ClaimListRow {
  claimant_email: string;
  proof_note: string;
  photos: string[];
  timeline: TimelineRow[];
}

export interface NewClaim {
  location_id: number;
  claimant_name: string;
  claimant_phone: string;
  claimant_email: string;
  category: string;
  category_class: string;
  value_class: 'high' | 'low';
  description: string;
  color: string;
  lost_area: string;
  area_key: string;
  lost_date: string | null;
  proof_note: string;
  image_url: string;
  source: ClaimSource;
  /** The call a phone report came from: a second claim for it is not inserted. */
  call_sid: string | null;
}

/** Who the `filed` timeline entry names, and its note, per source. */
const FILED_BY: Record<ClaimSource, { staff_name: string; note: string }> = {
  api: { staff_name: 'API', note: 'Filed through the API.' },
  web: { staff_name: 'Claimant page', note: 'Filed by the claimant on the public claim page.' },
  phone: { staff_name: 'Phone agent', note: 'Taken on the phone by the number\'s agent.' },
};

const COLUMNS = Prisma.sql`id, location_id, claimant_name, claimant_phone, category, category_class, value_class, description, color,
  lost_area, to_char(lost_date, 'YYYY-MM-DD') AS lost_date, image_url, status, source, created_at`;

/** A claim has a match while an item it matched is still in storage. */
const HAS_MATCH = Prisma.sql`EXISTS (
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
    const rows = await tx.$queryRaw<ClaimRow[]>`
      INSERT INTO claims (location_id, claimant_name, claimant_phone, claimant_email, category, category_class, value_class,
                          description, color, lost_area, area_key, lost_date, proof_note, image_url, status, source, call_sid)
      VALUES (${claim.location_id}, ${claim.claimant_name}, ${claim.claimant_phone}, ${claim.claimant_email},
              ${claim.category}, ${claim.category_class}, ${claim.value_class}, ${claim.description}, ${claim.color}, ${claim.lost_area},
              ${claim.area_key}, ${claim.lost_date}::date, ${claim.proof_note}, ${claim.image_url}, 'open', ${claim.source}, ${claim.call_sid})
      ON CONFLICT (call_sid) DO NOTHING
      RETURNING ${COLUMNS}`;
    const created = rows[0];
    if (!created) return null;
    if (claim.image_url) await tx.photo.create({ data: { claim_id: created.id, url: claim.image_url, is_primary: true } });
    const filed = FILED_BY[claim.source];
    const note = claim.call_sid ? `${filed.note} Call ${claim.call_sid}.` : filed.note;
    await tx.timelineEntry.create({ data: { claim_id: created.id, action: 'filed', staff_name: filed.staff_name, note } });
    return created;
  }

  /** Whether a claim was already filed for this call. */
  async existsForCall(callSid: string): Promise<boolean> {
    return (await this.prisma.claim.count({ where: { call_sid: callSid } })) > 0;
  }

  async findDetail(locationId: number, id: number): Promise<ClaimDetailRow | null> {
    const rows = await this.prisma.$queryRaw<(ClaimListRow & { claimant_email: string; proof_note: string })[]>`
      SELECT ${COLUMNS}, claimant_email, proof_note, ${HAS_MATCH} FROM claims WHERE id = ${id} AND location_id = ${locationId}`;
    if (rows.length === 0) return null;
    const [photos, timeline] = await Promise.all([
      this.prisma.photo.findMany({ where: { claim_id: id }, orderBy: [{ is_primary: 'desc' }, { id: 'asc' }], select: { url: true } }),
      this.prisma.timelineEntry.findMany({
        where: { claim_id: id },
        orderBy: { id: 'asc' },
        select: { created_at: true, action: true, staff_name: true, note: true },
      }),
    ]);
    return { ...rows[0], photos: photos.map((photo) => photo.url), timeline };
  }

  async list(locationId: number, filters: ListFilters, page: number): Promise<{ rows: ClaimListRow[]; total: number }> {
    const { where, rank } = listFilters(locationId, filters, { date: 'lost_date', area: 'area_key' });
    const order = rank ? Prisma.sql`ts_rank(search, ${rank}) DESC, id DESC` : Prisma.sql`id DESC`;
    const [rows, counted] = await Promise.all([
      this.prisma.$queryRaw<ClaimListRow[]>`
        SELECT ${COLUMNS}, ${HAS_MATCH} FROM claims WHERE ${where} ORDER BY ${order}
        LIMIT ${LOSTFOUND_PAGE_SIZE} OFFSET ${(page - 1) * LOSTFOUND_PAGE_SIZE}`,
      this.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM claims WHERE ${where}`,
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
    const words = anyWord ? Prisma.sql`to_tsquery('english', ${anyWord})` : undefined;
    const conditions = [Prisma.sql`location_id = ${item.location_id}`, Prisma.sql`status = 'open'`];
    if (!isOther) conditions.push(Prisma.sql`category_class IN (${item.category_class}, ${OTHER_CATEGORY})`);
    conditions.push(Prisma.sql`(lost_date IS NULL OR lost_date <= ${item.found_date}::date + 1)`);
    if (isOther) conditions.push(Prisma.sql`search @@ ${words}`);
    else if (words) conditions.push(Prisma.sql`(category_class = ${item.category_class} OR search @@ ${words})`);
    else conditions.push(Prisma.sql`category_class = ${item.category_class}`);
    // Without a word (only a category; "it"; an emoji) the category alone ranks: no constant in ORDER BY, where
    // PostgreSQL reads an integer as a column position (`ORDER BY 0` fails).
    const order = [Prisma.sql`(category_class = ${item.category_class}) DESC`];
    if (words) order.push(Prisma.sql`ts_rank(search, ${words}) DESC`);
    order.push(Prisma.sql`id DESC`);
    return tx.$queryRaw<ClaimRow[]>`
      SELECT ${COLUMNS} FROM claims WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY ${Prisma.join(order, ', ')}
      LIMIT ${MAX_CLAIM_CANDIDATES}`;
  }

  async lock(tx: Tx, locationId: number, id: number): Promise<ClaimRow | null> {
    const rows = await tx.$queryRaw<ClaimRow[]>`
      SELECT ${COLUMNS} FROM claims WHERE id = ${id} AND location_id = ${locationId} FOR UPDATE`;
    return rows[0] ?? null;
  }

  async markReunited(tx: Tx, id: number, note: string): Promise<void> {
    await tx.claim.update({ where: { id }, data: { status: 'reunited' } });
    await tx.timelineEntry.create({ data: { claim_id: id, action: 'reunited', staff_name: 'API', note } });
  }
}
