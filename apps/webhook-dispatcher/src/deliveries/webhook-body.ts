import { EMPTY_CALL_ANALYSIS, type CallCompletedData, type EventEnvelope } from '@switchboard/contracts';
import { CALL_COMPLETED_WEBHOOK_TYPE, type CallCompletedWebhookBody } from '@switchboard/signing';

/**
 * The public body for a `call.completed` event: the fields of spec part 6, in its order, then the call's analysis
 * (docs/webhooks.md). Internal fields of the event (account, phone number, direction, status) never reach a receiver.
 */
export function callCompletedWebhookBody(event: EventEnvelope<CallCompletedData>): CallCompletedWebhookBody {
  const call = event.data;
  return {
    type: CALL_COMPLETED_WEBHOOK_TYPE,
    number_id: call.number_id,
    occurred_at: event.occurred_at,
    call: {
      call_sid: call.call_sid,
      caller: call.caller,
      outcome: call.outcome,
      duration_sec: call.duration_sec,
      started_at: call.started_at,
      has_recording: call.has_recording,
      has_transcript: call.has_transcript,
      analysis: call.analysis ?? EMPTY_CALL_ANALYSIS,
    },
  };
}

/** The bytes that are signed and sent: built once per attempt from the event, so every attempt sends the same. */
export function encodeBody(body: CallCompletedWebhookBody): Buffer {
  return Buffer.from(JSON.stringify(body), 'utf8');
}
