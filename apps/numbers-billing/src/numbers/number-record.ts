import {
  CALL_COMPLETED_EVENT,
  OPT_IN_WEBHOOK_EVENTS,
  type NumberStateChanged,
  type NumberStatus,
  type NumberView,
  type OptInWebhookEvent,
  type SubscribableWebhookEvent,
} from '@switchboard/contracts';
import type { Selectable } from 'kysely';
import type { PhoneNumber } from '../generated/kysely/database';
import { formatNumberId } from './number-id';

/** The columns of a `numbers` row the domain reads (not the provider's release mark nor `updated_at`). */
export const NUMBER_COLUMNS = [
  'id',
  'account_id',
  'phone_number',
  'business_phone',
  'area_code',
  'status',
  'webhook_url',
  'webhook_events',
  'max_call_minutes',
  'webhook_secret_key_id',
  'webhook_secret_ciphertext',
  'periods_charged',
  'next_charge_at',
  'past_due_since',
  'released_at',
  'version',
  'created_at',
] as const;

/** A `numbers` row as the domain reads it. */
export type NumberRecord = Pick<Selectable<PhoneNumber>, (typeof NUMBER_COLUMNS)[number]>;

/** The columns of the list (`NumberView`): not the sealed secret nor the billing state. */
export const LIST_COLUMNS = [
  'id',
  'phone_number',
  'business_phone',
  'status',
  'webhook_url',
  'webhook_events',
  'max_call_minutes',
  'created_at',
] as const;

/** What the list shows of a number. */
export type NumberListRow = Pick<NumberRecord, (typeof LIST_COLUMNS)[number]>;

export function toNumberView(row: NumberListRow): NumberView {
  return {
    id: formatNumberId(row.id),
    phone_number: row.phone_number,
    business_phone: row.business_phone,
    status: row.status as NumberStatus,
    webhook_url: row.webhook_url,
    webhook_events: publicWebhookEvents(row.webhook_events),
    max_call_minutes: row.max_call_minutes,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The state other services keep (calls-media, webhook-dispatcher). The agent answers an active number while the
 * account's monthly talk-time allowance lasts; a past_due number is paused (docs/adr/0013-money-and-talk-time.md).
 */
export function toStateChanged(
  row: NumberRecord,
  account: { allowance_exhausted_period: string | null },
  changedAt: Date,
): NumberStateChanged {
  return {
    number_id: formatNumberId(row.id),
    account_id: row.account_id,
    phone_number: row.phone_number,
    business_phone: row.business_phone,
    status: row.status as NumberStatus,
    webhook_url: row.webhook_url,
    answering: row.status === 'active' && account.allowance_exhausted_period === null,
    max_call_minutes: row.max_call_minutes,
    version: row.version.toString(),
    changed_at: changedAt.toISOString(),
  };
}

/** Sealed-secret context: binds a ciphertext to its number, so it cannot be moved to another row. */
export function secretContext(id: bigint): string {
  return `numbers.webhook_secret:${formatNumberId(id)}`;
}

/** What a number's `webhook_events` shows: `call.completed` (always sent) and the opt-in events it chose, in order. */
export function publicWebhookEvents(stored: readonly string[] | null | undefined): SubscribableWebhookEvent[] {
  return [CALL_COMPLETED_EVENT, ...OPT_IN_WEBHOOK_EVENTS.filter((type) => (stored ?? []).includes(type))];
}

/** What is stored of a requested `webhook_events`: the opt-in events only, each once, in a fixed order. */
export function storedWebhookEvents(requested: readonly string[]): OptInWebhookEvent[] {
  return OPT_IN_WEBHOOK_EVENTS.filter((type) => requested.includes(type));
}
