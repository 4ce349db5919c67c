import {
  LOSTFOUND_PAGE_SIZE,
  type FoundItemDetail,
  type FoundItemView,
  type TimelineEntryView,
} from '@switchboard/contracts';
import type { FoundItemDetailRow, FoundItemRow, TimelineRow } from './found-items.repository';

export function toFoundItemView(row: FoundItemRow): FoundItemView {
  return {
    id: row.id,
    location_id: row.location_id,
    category: row.category,
    description: row.description,
    color: row.color,
    found_by: row.found_by,
    found_area: row.found_area,
    found_date: row.found_date,
    storage_ref: row.storage_ref,
    image_url: row.image_url,
    status: row.status,
    source: row.source,
    created_at: row.created_at.toISOString(),
  };
}

/** With `hold_until` (found_date + the location's hold days) while the item is stored (docs/adr/0079). */
export function toFoundItemDetail(row: FoundItemDetailRow, holdDays?: number): FoundItemDetail {
  const detail: FoundItemDetail = {
    ...toFoundItemView(row),
    photos: row.photos,
    timeline: row.timeline.map(toTimelineView),
  };
  if (holdDays !== undefined && row.status === 'stored') detail.hold_until = holdUntil(row.found_date, holdDays);
  return detail;
}

/** The first day an item found on `foundDate` may be donated or disposed of: `YYYY-MM-DD`, UTC. */
export function holdUntil(foundDate: string, holdDays: number): string {
  const day = new Date(`${foundDate}T00:00:00.000Z`);
  day.setUTCDate(day.getUTCDate() + holdDays);
  return day.toISOString().slice(0, 10);
}

export function toTimelineView(entry: TimelineRow): TimelineEntryView {
  return {
    created_at: entry.created_at.toISOString(),
    action: entry.action,
    staff_name: entry.staff_name,
    note: entry.note,
  };
}

/** `{ data, total, page, pages, per }`: a page past the last answers an empty `data` with the true totals. */
export function toPage<T>(
  data: T[],
  total: number,
  page: number,
): { data: T[]; total: number; page: number; pages: number; per: number } {
  return { data, total, page, pages: Math.ceil(total / LOSTFOUND_PAGE_SIZE), per: LOSTFOUND_PAGE_SIZE };
}
