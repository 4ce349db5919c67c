import { randomInt } from 'node:crypto';
import type { ClaimCreate } from '@switchboard/contracts';

/** A fresh valid US number in E.164. */
export function newPhone(): string {
  return `+1415${randomInt(2_000_000, 9_999_999)}`;
}

/** A claim body; a low-value umbrella claim unless told otherwise. */
export function claimBody(locationId: number, overrides: Partial<ClaimCreate> = {}): ClaimCreate {
  return {
    location_id: locationId,
    claimant_name: 'Jane Smith',
    claimant_phone: newPhone(),
    category: 'umbrella',
    description: 'Red umbrella, wooden handle',
    color: 'red',
    lost_area: 'Gate B12',
    lost_date: '2026-11-17',
    ...overrides,
  };
}

/** A high-value wallet claim. */
export function walletClaimBody(locationId: number, overrides: Partial<ClaimCreate> = {}): ClaimCreate {
  return claimBody(locationId, {
    category: 'wallet',
    description: 'Black leather wallet with my library card',
    color: 'black',
    lost_area: 'Food court',
    proof_note: 'Library card in the name of Jane Smith',
    claimant_email: 'jane@example.com',
    ...overrides,
  });
}
