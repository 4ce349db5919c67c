import {
  EMPTY_CALL_ANALYSIS,
  type CallCompletedData,
  type CallStartedData,
  type CallUpdatedData,
  type EventEnvelope,
} from '@switchboard/contracts';
import {
  CALL_COMPLETED_WEBHOOK_TYPE,
  CALL_STARTED_WEBHOOK_TYPE,
  CALL_UPDATED_WEBHOOK_TYPE,
  type CallCompletedWebhookBody,
  type CallStartedWebhookBody,
  type CallUpdatedWebhookBody,
  type CallWebhookCall,
} from '@switchboard/signing';

/**
 * The public body for a `call.completed` event: the fields of spec part 6, in its order, then the call's analysis and
 * status (docs/webhooks.md). Internal fields of the event (account, phone number, direction) never reach a receiver.
 */
export function callCompletedWebhookBody(event: EventEnvelope<CallCompletedData>): CallCompletedWebhookBody {
  return {
    type: CALL_COMPLETED_WEBHOOK_TYPE,
    number_id: event.data.number_id,
    occurred_at: event.occurred_at,
    call: endedCall(event.data),
  };
}

/** The public body for a `call.started` event: when the call began is when the event happened. */
export function callStartedWebhookBody(event: EventEnvelope<CallStartedData>): CallStartedWebhookBody {
  const call = event.data;
  return {
    type: CALL_STARTED_WEBHOOK_TYPE,
    number_id: call.number_id,
    occurred_at: call.started_at,
    call: { call_sid: call.call_sid, caller: call.caller, direction: call.direction, started_at: call.started_at },
  };
}

/** The public body for a `call.updated` event: the call as corrected, as `call.completed` shows it, and before. */
export function callUpdatedWebhookBody(event: EventEnvelope<CallUpdatedData>): CallUpdatedWebhookBody {
  const call = event.data;
  return {
    type: CALL_UPDATED_WEBHOOK_TYPE,
    number_id: call.number_id,
    occurred_at: event.occurred_at,
    call: endedCall(call),
    previous: { status: call.previous_status, duration_sec: call.previous_duration_sec },
  };
}

/** A call that ended, as `call.completed` and `call.updated` show it. */
function endedCall(call: CallCompletedData): CallWebhookCall {
  return {
    call_sid: call.call_sid,
    caller: call.caller,
    outcome: call.outcome,
    duration_sec: call.duration_sec,
    started_at: call.started_at,
    has_recording: call.has_recording,
    has_transcript: call.has_transcript,
    analysis: call.analysis ?? EMPTY_CALL_ANALYSIS,
    status: call.status,
  };
}

/** The bytes that are signed and sent: built once per attempt from the event, so every attempt sends the same. */
export function encodeBody(body: CallCompletedWebhookBody): Buffer {
  return Buffer.from(JSON.stringify(body), 'utf8');
}
