import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { EventEnvelope, NumberStateChanged } from '@switchboard/contracts';
import type { NumberOwnershipState } from '../../src/number-ownership/attribution';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function anAccountId(): string {
  let id = 'acct_';
  for (const byte of randomBytes(20)) id += ALPHABET[byte % 36];
  return id;
}

export function aNumberId(): string {
  return `num_${randomInt(1, 2 ** 47)}`;
}

/** A random valid US number in a real area code (415, San Francisco), exchange 2xx-9xx. */
export function aUsPhoneNumber(): string {
  return `+1415${randomInt(200, 1000)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
}

/** A number state as calls-media keeps it. */
export function aNumberState(overrides: Partial<NumberOwnershipState> = {}): NumberOwnershipState {
  return {
    number_id: aNumberId(),
    version: 1n,
    account_id: anAccountId(),
    phone_number: aUsPhoneNumber(),
    status: 'active',
    answering: true,
    max_call_minutes: null,
    changed_at: new Date('2026-11-01T10:00:00Z'),
    ...overrides,
  };
}

/** A `number.*` event payload as numbers-billing publishes it. */
export function aNumberStateChanged(overrides: Partial<NumberStateChanged> = {}): NumberStateChanged {
  return {
    number_id: aNumberId(),
    account_id: anAccountId(),
    phone_number: aUsPhoneNumber(),
    business_phone: aUsPhoneNumber(),
    status: 'active',
    webhook_url: null,
    answering: true,
    version: '1',
    changed_at: new Date().toISOString(),
    ...overrides,
  };
}

export function anEnvelope<T>(type: string, data: T): EventEnvelope<T> {
  const id = randomUUID();
  return { id, type, occurred_at: new Date().toISOString(), correlation_id: id, causation_id: null, data };
}
