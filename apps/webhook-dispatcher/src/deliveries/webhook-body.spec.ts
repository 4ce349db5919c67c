import { callCompletedEvent } from '../../test/factories/call-completed.factory';
import { callStartedEvent, callUpdatedEvent } from '../../test/factories/call-events.factory';
import { callCompletedWebhookBody, callStartedWebhookBody, callUpdatedWebhookBody, encodeBody } from './webhook-body';

describe('callCompletedWebhookBody', () => {
  it("keeps the fields of spec part 6 in its order, then the call's analysis and status, and leaves internal ones out", () => {
    const event = callCompletedEvent();
    const body = callCompletedWebhookBody(event);

    expect(Object.keys(body)).toEqual(['type', 'number_id', 'occurred_at', 'call']);
    expect(Object.keys(body.call)).toEqual([
      'call_sid',
      'caller',
      'outcome',
      'duration_sec',
      'started_at',
      'has_recording',
      'has_transcript',
      'analysis',
      'status',
    ]);
    const text = encodeBody(body).toString('utf8');
    for (const internal of [event.data.account_id, event.data.phone_number, 'direction'])
      expect(text).not.toContain(internal);
  });

  it("carries the call's status: completed, or incomplete when the end report never came", () => {
    expect(callCompletedWebhookBody(callCompletedEvent()).call.status).toBe('completed');
    expect(callCompletedWebhookBody(callCompletedEvent({ status: 'incomplete' })).call.status).toBe('incomplete');
  });

  it("carries the call's analysis as the event has it, and the empty analysis for an event written before it", () => {
    const analysis = {
      summary: 'Ordered a large margherita.',
      sentiment: 'positive' as const,
      successful: true,
      custom: { order_total: 23.5 },
    };
    expect(callCompletedWebhookBody(callCompletedEvent({ analysis })).call.analysis).toEqual(analysis);
    // The factory's event has no analysis, as one calls-media wrote before calls had one.
    expect(callCompletedWebhookBody(callCompletedEvent()).call.analysis).toEqual({
      summary: null,
      sentiment: 'unknown',
      successful: null,
      custom: {},
    });
  });

  it('takes occurred_at from the event, so every attempt sends the same bytes', () => {
    const event = callCompletedEvent({}, { occurred_at: '2026-01-02T03:04:05.000Z' });
    expect(callCompletedWebhookBody(event).occurred_at).toBe('2026-01-02T03:04:05.000Z');
    expect(encodeBody(callCompletedWebhookBody(event)).equals(encodeBody(callCompletedWebhookBody(event)))).toBe(true);
  });
});

describe('callStartedWebhookBody', () => {
  it('tells the call as it begins, occurred_at its start, and leaves internal fields out', () => {
    const event = callStartedEvent({
      call_sid: 'CA42',
      caller: '+14155550111',
      started_at: '2026-11-20T17:02:11.000Z',
    });
    const body = callStartedWebhookBody(event);

    expect(body).toEqual({
      type: 'call.started',
      number_id: 'num_1',
      occurred_at: '2026-11-20T17:02:11.000Z',
      call: { call_sid: 'CA42', caller: '+14155550111', direction: 'inbound', started_at: '2026-11-20T17:02:11.000Z' },
    });
    const text = JSON.stringify(body);
    for (const internal of [event.data.account_id, event.data.phone_number]) expect(text).not.toContain(internal);
  });
});

describe('callUpdatedWebhookBody', () => {
  it('carries the call as corrected, as call.completed does, and what it was before', () => {
    const event = callUpdatedEvent({ status: 'completed', duration_sec: 4_210 });
    const body = callUpdatedWebhookBody(event);

    const completed = callCompletedWebhookBody({ ...event, type: 'call.completed' });
    expect(body).toEqual({
      type: 'call.updated',
      number_id: completed.number_id,
      occurred_at: completed.occurred_at,
      call: completed.call,
      previous: { status: 'incomplete', duration_sec: 3_600 },
    });
    expect(Object.keys(body)).toEqual(['type', 'number_id', 'occurred_at', 'call', 'previous']);
    expect(body.call).toMatchObject({ status: 'completed', duration_sec: 4_210 });
    expect(body.occurred_at).toBe(event.occurred_at);
    const text = JSON.stringify(body);
    for (const internal of [event.data.account_id, event.data.phone_number, 'previous_status', 'direction'])
      expect(text).not.toContain(internal);
  });
});
