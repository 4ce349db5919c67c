import type { FoundItemCreate } from '@switchboard/contracts';

/** A found-item body; a low-value umbrella unless told otherwise. */
export function foundItemBody(locationId: number, overrides: Partial<FoundItemCreate> = {}): FoundItemCreate {
  return {
    location_id: locationId,
    category: 'umbrella',
    description: 'Red umbrella with a wooden handle',
    color: 'red',
    found_area: 'Gate B12',
    found_by: 'Maria',
    storage_ref: 'Bin 4',
    found_date: '2026-11-18',
    ...overrides,
  };
}

/** A high-value found wallet. */
export function foundWalletBody(locationId: number, overrides: Partial<FoundItemCreate> = {}): FoundItemCreate {
  return foundItemBody(locationId, {
    category: 'wallet',
    description: 'Black leather wallet with a library card, initials J.S.',
    color: 'black',
    found_area: 'Food court',
    storage_ref: 'Safe 1',
    ...overrides,
  });
}
