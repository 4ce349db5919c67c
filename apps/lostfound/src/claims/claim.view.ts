import type { ClaimCreated, ClaimDetail, ClaimMatchView, ClaimView } from '@switchboard/contracts';
import { toTimelineView } from '../found-items/found-item.view';
import type { ListedMatchRow } from '../matching/matches.repository';
import type { ClaimDetailRow, ClaimRow } from './claims.repository';

/**
 * A claim as the API shows it. `verify_required` is present (true) only for high-value claims, and `matches`
 * only ever for low-value ones: a high-value claim's answer says nothing about any item (spec part 2).
 */
export function toClaimView(row: ClaimRow, hasMatch: boolean): ClaimView {
  const view: ClaimView = {
    id: row.id,
    location_id: row.location_id,
    claimant_name: row.claimant_name,
    claimant_phone: row.claimant_phone,
    category: row.category,
    description: row.description,
    color: row.color,
    lost_area: row.lost_area,
    lost_date: row.lost_date,
    image_url: row.image_url,
    status: row.status,
    source: row.source,
    created_at: row.created_at.toISOString(),
    has_match: hasMatch,
  };
  if (row.value_class !== 'low') view.verify_required = true;
  return view;
}

export function toClaimCreated(row: ClaimRow, hasMatch: boolean, listed: ListedMatchRow[]): ClaimCreated {
  const view: ClaimCreated = toClaimView(row, hasMatch);
  if (row.value_class === 'low') view.matches = listed.map(toMatchView);
  return view;
}

export function toClaimDetail(row: ClaimDetailRow, listed: ListedMatchRow[]): ClaimDetail {
  return {
    ...toClaimCreated(row, row.has_match, listed),
    claimant_email: row.claimant_email,
    proof_note: row.proof_note,
    photos: row.photos,
    timeline: row.timeline.map(toTimelineView),
    texts: row.texts.map((text) => ({ body: text.body, sent_at: text.sent_at.toISOString() })),
  };
}

function toMatchView(match: ListedMatchRow): ClaimMatchView {
  return {
    found_item_id: match.found_item_id,
    description: match.description,
    color: match.color,
    found_area: match.found_area,
    found_date: match.found_date,
  };
}
