import type { NumberStateChanged, NumberStatus, NumberView } from '@switchboard/contracts';
import { formatNumberId } from './number-id';

/** A `numbers` row as the domain reads it. */
export interface NumberRecord {
  id: bigint;
  account_id: string;
  phone_number: string;
  business_phone: string;
  area_code: string;
  status: string;
  webhook_url: string | null;
  webhook_secret_key_id: string;
  webhook_secret_ciphertext: string;
  periods_charged: number;
  next_charge_at: Date;
  past_due_since: Date | null;
  released_at: Date | null;
  version: bigint;
  created_at: Date;
}

/** What the list shows of a number. */
export type NumberListRow = Pick<NumberRecord, 'id' | 'phone_number' | 'business_phone' | 'status' | 'webhook_url' | 'created_at'>;

export function toNumberView(row: NumberListRow): NumberView {
  return {
    id: formatNumberId(row.id),
    phone_number: row.phone_number,
    business_phone: row.business_phone,
    status: row.status as NumberStatus,
    webhook_url: row.webhook_url,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The state other services keep (calls-media, webhook-dispatcher). The agent answers an active number while the
 * account's monthly talk-time allowance lasts; a past_due number is paused (docs/adr/0013-talk-time-allowance.md).
 */
export function toStateChanged(row: NumberRecord, account: { allowance_exhausted_period: string | null }, changedAt: Date): NumberStateChanged {
  return {
    number_id: formatNumberId(row.id),
    account_id: row.account_id,
    phone_number: row.phone_number,
    business_phone: row.business_phone,
    status: row.status as NumberStatus,
    webhook_url: row.webhook_url,
    answering: row.status === 'active' && account.allowance_exhausted_period === null,
    version: row.version.toString(),
    changed_at: changedAt.toISOString(),
  };
}

/** Sealed-secret context: binds a ciphertext to its number, so it cannot be moved to another row. */
export function secretContext(id: bigint): string {
  return `numbers.webhook_secret:${formatNumberId(id)}`;
}
