import { randomUUID } from 'node:crypto';
import type { CallStartedData, CallUpdatedData, EventEnvelope } from '@switchboard/contracts';
import { callCompletedData } from './call-completed.factory';

/** A `call.started` envelope as calls-media's outbox publishes it; each call gets its own call SID. */
export function callStartedEvent(
  data: Partial<CallStartedData> = {},
  envelope: Partial<Omit<EventEnvelope<CallStartedData>, 'data'>> = {},
): EventEnvelope<CallStartedData> {
  const { call_sid, account_id, number_id, phone_number, caller, direction, started_at } = callCompletedData();
  const call = { call_sid, account_id, number_id, phone_number, caller, direction, started_at, ...data };
  return {
    id: randomUUID(),
    type: 'call.started',
    occurred_at: '2026-11-20T17:02:11.400Z',
    correlation_id: call.call_sid,
    causation_id: null,
    data: call,
    ...envelope,
  };
}

/** A `call.updated` envelope: a call closed as `incomplete` after 60 minutes, corrected by its late end report. */
export function callUpdatedEvent(
  data: Partial<CallUpdatedData> = {},
  envelope: Partial<Omit<EventEnvelope<CallUpdatedData>, 'data'>> = {},
): EventEnvelope<CallUpdatedData> {
  const call = {
    ...callCompletedData(),
    previous_status: 'incomplete',
    previous_duration_sec: 3_600,
    ...data,
  };
  return {
    id: randomUUID(),
    type: 'call.updated',
    occurred_at: '2026-11-20T18:10:00.000Z',
    correlation_id: call.call_sid,
    causation_id: null,
    data: call,
    ...envelope,
  };
}
