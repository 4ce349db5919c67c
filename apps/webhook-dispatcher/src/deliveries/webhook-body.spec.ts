import { callCompletedEvent } from '../../test/factories/call-completed.factory';
import { callCompletedWebhookBody, encodeBody } from './webhook-body';

describe('callCompletedWebhookBody', () => {
  it("keeps the fields of spec part 6 in its order, then the call's analysis, and leaves internal ones out", () => {
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
    ]);
    const text = encodeBody(body).toString('utf8');
    for (const internal of [event.data.account_id, event.data.phone_number, 'direction', '"status"'])
      expect(text).not.toContain(internal);
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
