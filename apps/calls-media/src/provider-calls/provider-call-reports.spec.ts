import {
  outcomeOfDisconnection,
  retellCallReport,
  retellCallStart,
  retellTranscriptUpdate,
  twilioCallStart,
  twilioStatusReport,
} from './provider-call-reports';

const twilioSid = `CA${'a'.repeat(32)}`;
const call = (extra: Record<string, unknown> = {}) => ({
  call_id: 'call_1',
  from_number: '+14155550199',
  to_number: '+14155550100',
  direction: 'inbound',
  start_timestamp: Date.parse('2026-11-24T10:00:00Z'),
  duration_ms: 61_400,
  telephony_identifier: { twilio_call_sid: twilioSid },
  transcript_object: [
    { role: 'agent', content: 'Hello!', words: [] },
    { role: 'user', content: 'Hi, I lost my umbrella.', words: [] },
  ],
  disconnection_reason: 'user_hangup',
  call_analysis: { custom_analysis_data: {} },
  ...extra,
});

describe('retellCallReport', () => {
  it("reads Retell's analysed call as our report, keyed by Twilio's call SID", () => {
    expect(retellCallReport({ event: 'call_analyzed', call: call() })).toEqual({
      call_sid: twilioSid,
      to: '+14155550100',
      caller: '+14155550199',
      direction: 'inbound',
      status: 'completed',
      outcome: 'answered',
      duration_sec: 61,
      started_at: new Date('2026-11-24T10:00:00Z'),
      transcript: [
        { role: 'agent', text: 'Hello!' },
        { role: 'caller', text: 'Hi, I lost my umbrella.' },
      ],
      lost_item: null,
      analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
    });
  });

  it("reads Retell's call_analysis as ours: summary, sentiment lower-cased, success, custom values unchecked", () => {
    const report = retellCallReport({
      call: call({
        call_analysis: {
          call_summary: '  The caller asked about gluten-free crust.  ',
          user_sentiment: 'Negative',
          call_successful: false,
          in_voicemail: false,
          custom_analysis_data: { outcome: 'order_placed', order_total: 23.5, pickup: 'yes', lost_item: null },
        },
      }),
    });
    expect(report).toMatchObject({
      outcome: 'order_placed',
      analysis: {
        summary: 'The caller asked about gluten-free crust.',
        sentiment: 'negative',
        successful: false,
        // Switchboard's own fields are not the business's: the rest is checked against the declared fields later.
        custom: { order_total: 23.5, pickup: 'yes' },
      },
    });
    expect(retellCallReport({ call: call({ call_analysis: undefined }) })).toMatchObject({ analysis: null });
    expect(
      retellCallReport({ call: call({ call_analysis: { user_sentiment: 'Elated', call_successful: 'yes' } }) }),
    ).toMatchObject({ analysis: { sentiment: 'unknown', successful: null, custom: {} } });
  });

  it("keys by Retell's call id without Twilio, and takes the agent's outcome when it is a label", () => {
    const report = retellCallReport({
      call: call({
        telephony_identifier: undefined,
        call_analysis: { custom_analysis_data: { outcome: 'order_placed' } },
      }),
    });
    expect(report).toMatchObject({ call_sid: 'call_1', outcome: 'order_placed' });
    expect(
      retellCallReport({ call: call({ call_analysis: { custom_analysis_data: { outcome: 'Not A Label!' } } }) }),
    ).toMatchObject({ outcome: 'answered' });
  });

  it('takes a lost item the agent gathered only when it meets the lost-item rules', () => {
    const lost = (item: unknown) =>
      retellCallReport({
        call: call({ call_analysis: { custom_analysis_data: { outcome: 'lost_item_report', lost_item: item } } }),
      });
    expect(lost({ category: 'umbrella', description: 'Red umbrella', color: 'red' })).toMatchObject({
      lost_item: { category: 'umbrella', description: 'Red umbrella', color: 'red' },
    });
    expect(lost({ category: '', description: 'x' })).toMatchObject({ lost_item: null });
  });

  it('says why a call cannot be a report', () => {
    expect(retellCallReport({ event: 'call_analyzed' })).toEqual({ unusable: 'no call in the event' });
    expect(retellCallReport({ call: call({ to_number: 'nobody' }) })).toEqual({ unusable: 'no usable to_number' });
    expect(retellCallReport({ call: call({ start_timestamp: 'soon' }) })).toEqual({
      unusable: 'no usable start_timestamp',
    });
  });

  it.each([
    ['call_transfer', 'transferred'],
    ['voicemail_reached', 'voicemail'],
    ['dial_no_answer', 'missed'],
    ['error_llm_websocket_open', 'error'],
    ['agent_hangup', 'answered'],
    [undefined, 'answered'],
  ])('reads disconnection %s as %s', (reason, outcome) => {
    expect(outcomeOfDisconnection(reason)).toBe(outcome);
  });
});

describe('twilioStatusReport', () => {
  const received = new Date('2026-11-24T10:05:00Z');

  it('reports a call nobody answered as missed', () => {
    expect(
      twilioStatusReport(
        {
          CallSid: twilioSid,
          CallStatus: 'busy',
          From: '+14155550199',
          To: '+14155550100',
          Timestamp: 'Tue, 24 Nov 2026 10:04:00 +0000',
        },
        received,
      ),
    ).toMatchObject({
      call_sid: twilioSid,
      status: 'busy',
      outcome: 'missed',
      started_at: new Date('2026-11-24T10:04:00Z'),
    });
  });

  it('leaves answered calls and odd callbacks alone', () => {
    expect(
      twilioStatusReport({ CallSid: twilioSid, CallStatus: 'completed', To: '+14155550100' }, received),
    ).toBeNull();
    expect(twilioStatusReport({ CallSid: 'nope', CallStatus: 'busy', To: '+14155550100' }, received)).toBeNull();
  });
});

describe('Retell live events', () => {
  it("reads call_started's call as a start, keyed by Twilio's call SID when Retell knows it", () => {
    expect(retellCallStart({ event: 'call_started', call: call() })).toEqual({
      call_sid: twilioSid,
      to: '+14155550100',
      caller: '+14155550199',
      direction: 'inbound',
      started_at: new Date('2026-11-24T10:00:00Z'),
    });
    expect(retellCallStart({ event: 'call_started', call: call({ telephony_identifier: undefined }) })).toMatchObject({
      call_sid: 'call_1',
    });
  });

  it("reads transcript_updated's whole transcript so far, in our roles, with the call's start", () => {
    expect(retellTranscriptUpdate({ event: 'transcript_updated', call: call() })).toEqual({
      start: expect.objectContaining({ call_sid: twilioSid, to: '+14155550100' }),
      turns: [
        { role: 'agent', text: 'Hello!' },
        { role: 'caller', text: 'Hi, I lost my umbrella.' },
      ],
    });
    expect(
      retellTranscriptUpdate({ event: 'transcript_updated', call: call({ transcript_object: [] }) }),
    ).toMatchObject({
      turns: [],
    });
  });

  it('says why a live event cannot be used', () => {
    expect(retellCallStart({ event: 'call_started' })).toEqual({ unusable: 'no call in the event' });
    expect(retellCallStart({ event: 'call_started', call: call({ to_number: 'nope' }) })).toEqual({
      unusable: 'no usable to_number',
    });
    expect(retellTranscriptUpdate({ event: 'transcript_updated', call: call({ start_timestamp: 'soon' }) })).toEqual({
      unusable: 'no usable start_timestamp',
    });
  });
});

describe('twilioCallStart', () => {
  const params = {
    CallSid: twilioSid,
    To: '+14155550100',
    From: '+14155550199',
    Timestamp: 'Tue, 24 Nov 2026 10:00:00 +0000',
  };
  const received = new Date('2026-11-24T10:00:05Z');

  it('reads a ringing or answered call as its start', () => {
    for (const status of ['ringing', 'in-progress'])
      expect(twilioCallStart({ ...params, CallStatus: status }, received)).toEqual({
        call_sid: twilioSid,
        to: '+14155550100',
        caller: '+14155550199',
        direction: 'inbound',
        started_at: new Date('2026-11-24T10:00:00Z'),
      });
  });

  it('leaves other statuses and odd callbacks to the rest', () => {
    for (const status of ['completed', 'busy', 'queued', undefined])
      expect(twilioCallStart({ ...params, CallStatus: status }, received)).toBeNull();
    expect(twilioCallStart({ ...params, CallStatus: 'ringing', CallSid: 'CA1' }, received)).toBeNull();
    expect(twilioCallStart({ ...params, CallStatus: 'ringing', Timestamp: 'garbage' }, received)).toMatchObject({
      started_at: received,
    });
  });
});
