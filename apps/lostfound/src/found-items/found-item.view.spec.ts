import { holdUntil } from './found-item.view';
import { newPublicSlug } from '../locations/locations.service';

describe('the hold period (docs/adr/0079)', () => {
  it.each([
    ['2026-11-01', 60, '2026-12-31'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-03-08', 60, '2026-05-07'],
  ])('an item found on %s with %d hold days may leave from %s', (found, days, until) => {
    expect(holdUntil(found, days)).toBe(until);
  });
});

describe('claimant-page slugs (docs/adr/0079)', () => {
  it('are 22 URL-safe characters (128 random bits), never the same twice', () => {
    const slugs = Array.from({ length: 200 }, newPublicSlug);
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(slugs).size).toBe(200);
  });
});
