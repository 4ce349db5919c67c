import type { ClaimRow } from './claims.repository';
import { toClaimCreated, toClaimDetail, toClaimView } from './claim.view';

function claimRow(overrides: Partial<ClaimRow> = {}): ClaimRow {
  return {
    id: 3,
    location_id: 1,
    claimant_name: 'Jane Smith',
    claimant_phone: '+14158675309',
    category: 'umbrella',
    category_class: 'umbrella',
    value_class: 'low',
    description: 'Red umbrella',
    color: 'red',
    lost_area: 'Gate B12',
    lost_date: '2026-11-17',
    image_url: '',
    status: 'open',
    source: 'api',
    created_at: new Date('2026-11-20T10:00:00Z'),
    ...overrides,
  };
}

const listed = [
  {
    found_item_id: 9,
    description: 'Red umbrella, wooden handle',
    color: 'red',
    found_area: 'Gate B12',
    found_date: '2026-11-18',
  },
];

describe('claim views', () => {
  it('lists a low-value claim its candidate matches and leaves verify_required out', () => {
    const view = toClaimCreated(claimRow(), true, listed);
    expect(view.matches).toEqual(listed);
    expect(view).not.toHaveProperty('verify_required');
    expect(view.has_match).toBe(true);
  });

  it('gives a high-value claim only has_match and verify_required, never a match, even if handed one', () => {
    const view = toClaimCreated(claimRow({ category: 'wallet', value_class: 'high' }), true, listed);
    expect(view).not.toHaveProperty('matches');
    expect(view.verify_required).toBe(true);
    expect(JSON.stringify(view)).not.toContain('wooden handle');
  });

  it('keeps a high-value claim detail free of item details too', () => {
    const row = {
      ...claimRow({ value_class: 'high', category: 'wallet' }),
      has_match: true,
      claimant_email: '',
      proof_note: 'initials',
      photos: [],
      timeline: [],
      texts: [],
    };
    const detail = toClaimDetail(row, listed);
    expect(detail).not.toHaveProperty('matches');
    expect(detail.verify_required).toBe(true);
  });

  it('shows the claim fields of the spec with created_at as ISO 8601', () => {
    expect(toClaimView(claimRow(), false)).toMatchObject({
      id: 3,
      status: 'open',
      source: 'api',
      has_match: false,
      created_at: '2026-11-20T10:00:00.000Z',
    });
  });
});
