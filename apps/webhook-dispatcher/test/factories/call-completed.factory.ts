import { randomUUID } from 'node:crypto';
import type { CallCompletedData, EventEnvelope } from '@switchboard/contracts';

let sequence = 0;

/** A valid `CallCompletedData`; each call gets its own call SID. */
export function callCompletedData(overrides: Partial<CallCompletedData> = {}): CallCompletedData {
  sequence += 1;
  return {
    call_sid: `CA${String(sequence).padStart(6, '0')}${randomUUID().replace(/-/g, '').slice(0, 26)}`,
    account_id: 'acct_0123456789abcdefghij',
    number_id: 'num_1',
    phone_number: '+14155550100',
    caller: '+14155550199',
    direction: 'inbound',
    status: 'completed',
    outcome: 'order_placed',
    duration_sec: 93,
    started_at: '2026-11-20T17:02:11.000Z',
    has_recording: true,
    has_transcript: false,
    ...overrides,
  };
}

/** A `call.completed` envelope as calls-media's outbox publishes it. */
export function callCompletedEvent(
  data: Partial<CallCompletedData> = {},
  envelope: Partial<Omit<EventEnvelope<CallCompletedData>, 'data'>> = {},
): EventEnvelope<CallCompletedData> {
  const call = callCompletedData(data);
  return {
    id: randomUUID(),
    type: 'call.completed',
    occurred_at: '2026-11-20T17:03:44.000Z',
    correlation_id: call.call_sid,
    causation_id: null,
    data: call,
    ...envelope,
  };
}
