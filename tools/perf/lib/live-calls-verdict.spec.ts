import {
  liveAccounting,
  livePlan,
  overtaken,
  planTalkTimeCents,
  publishedOutOfOrder,
  sseReader,
  streamStats,
} from './live-calls-verdict.mjs';

describe('the live-calls fault test', () => {
  it('plans calls of 4-6 turns 500-1000 ms apart and 20-600 s, the same for the same seed', () => {
    const plan = livePlan({ calls: 200, seed: 7 });
    expect(plan).toHaveLength(200);
    for (const call of plan) {
      expect(call.transcript.length).toBeGreaterThanOrEqual(4);
      expect(call.transcript.length).toBeLessThanOrEqual(6);
      expect(call.turn_interval_ms).toBeGreaterThanOrEqual(500);
      expect(call.turn_interval_ms).toBeLessThanOrEqual(1000);
      expect(call.duration_sec).toBeGreaterThanOrEqual(20);
      expect(call.duration_sec).toBeLessThanOrEqual(600);
      expect(call.plays_ms).toBe((call.transcript.length + 1) * call.turn_interval_ms);
    }
    expect(new Set(plan.map((call) => call.transcript.length)).size).toBe(3);
    expect(livePlan({ calls: 200, seed: 7 })).toEqual(plan);
    expect(livePlan({ calls: 200, seed: 8 })).not.toEqual(plan);
  });

  it('prices the talk time at the rate per minute, rounded up to a cent', () => {
    const plan = [{ duration_sec: 60 }, { duration_sec: 61 }] as ReturnType<typeof livePlan>;
    expect(planTalkTimeCents(plan)).toBe(59); // 29 + 29.48
    expect(planTalkTimeCents(plan, 49)).toBe(99); // 49 + 49.82
  });

  it('reads Server-Sent Events across chunks, with ids, CRLF and comments, and leaves a half event for later', () => {
    const events: unknown[] = [];
    const reader = sseReader((event: unknown) => events.push(event));
    reader.push('retry: 1000\n\n: keep-alive\n\nevent: status\nid: 7\ndata: {"call_id":"CA1"}\n\nevent: tu');
    reader.push('rn\r\nid: 8\r\ndata: {"position":0}\r\n\r\nevent: end\ndata: {"reason":"shutdown"}\n\nevent: ended\n');
    expect(events).toEqual([
      { event: 'status', id: '7', data: '{"call_id":"CA1"}' },
      { event: 'turn', id: '8', data: '{"position":0}' },
      { event: 'end', data: '{"reason":"shutdown"}' },
    ]);
    reader.push('id: 9\ndata: {"call_id":"CA1",\ndata: "status":"completed"}\n\n');
    expect(events.at(-1)).toEqual({ event: 'ended', id: '9', data: '{"call_id":"CA1",\n"status":"completed"}' });
  });

  const listed = (id: string, status = 'completed', duration_sec = 60) => ({ id, status, duration_sec });
  const row = (kind: string, sid: string) => ({ kind, reference: `${kind}:${sid}` });

  it('counts nothing lost or twice when every accepted call is completed and billed once', () => {
    const result = liveAccounting({
      accepted: ['CA1', 'CA2'],
      listed: [listed('CA1'), listed('CA2'), listed('CA3')],
      ledger: [row('talk_time', 'CA1'), row('talk_time', 'CA2'), row('talk_time', 'CA3'), row('number_month', 'n')],
      expected: new Map([
        ['CA1', 60],
        ['CA2', 60],
      ]),
      endedSeen: new Map([['CA1', 1]]),
    });
    expect(result).toMatchObject({
      accepted: 2,
      completed: 2,
      billed: 2,
      lost: 0,
      duplicated: 0,
      wrong_duration: 0,
      recorded_despite_error: 1,
      stream: { saw_ended: 1, ended_twice: 0 },
    });
    expect(result.evidence.stream_missed_end).toEqual(['CA2']);
  });

  it('counts a call lost once when it is left in progress, incomplete, unlisted or unbilled', () => {
    const result = liveAccounting({
      accepted: ['CA1', 'CA2', 'CA3', 'CA4', 'CA5'],
      listed: [listed('CA1', 'in_progress', 0), listed('CA2', 'incomplete'), listed('CA4'), listed('CA5')],
      ledger: [row('talk_time', 'CA2'), row('talk_time', 'CA5')],
    });
    expect(result.lost_by_check).toEqual({ not_completed: 3, not_billed: 3 });
    expect(result.lost).toBe(4);
    expect(result.statuses).toEqual({ in_progress: 1, incomplete: 1, 'not listed': 1, completed: 2 });
    expect(result.in_progress).toBe(1);
    expect(result.evidence.not_completed).toEqual([
      { sid: 'CA1', status: 'in_progress' },
      { sid: 'CA2', status: 'incomplete' },
      { sid: 'CA3', status: 'not listed' },
    ]);
  });

  it('counts a call listed twice, billed twice, or corrected by an adjustment, and a duration not as reported', () => {
    const result = liveAccounting({
      accepted: ['CA1', 'CA2', 'CA3'],
      listed: [listed('CA1'), listed('CA1'), listed('CA2'), listed('CA3', 'completed', 61)],
      ledger: [
        row('talk_time', 'CA1'),
        row('talk_time', 'CA2'),
        row('talk_time', 'CA2'),
        row('talk_time', 'CA3'),
        row('talk_time_adjustment', 'CA3'),
      ],
      expected: new Map([['CA3', 60]]),
      endedSeen: new Map([['CA1', 2]]),
    });
    expect(result.duplicated_by_check).toEqual({ calls_list: 1, billing: 1, adjustment: 1 });
    expect(result).toMatchObject({ lost: 0, duplicated: 3, wrong_duration: 1, stream: { ended_twice: 1 } });
    expect(result.evidence.wrong_duration).toEqual([{ sid: 'CA3', reported: 60, listed: 61 }]);
  });
});

describe('what the live stream carried', () => {
  it('counts its connections, breaks, events by type, and ids repeated or out of order', () => {
    const stats = streamStats({
      events: [
        { event: 'status', id: '1' },
        { event: 'turn', id: '3' },
        { event: 'heartbeat' },
        { event: 'turn', id: '2' },
        { event: 'ended', id: '3' },
      ],
      connections: [
        { status: 200, last_event_id: null },
        { status: 502, last_event_id: '3' },
        { status: 200, last_event_id: '3' },
      ],
      breaks: [{ why: 'ECONNRESET' }, { why: 'answered 502' }],
    });
    expect(stats).toEqual({
      connections: 2,
      reconnects: 1,
      resumed_with_last_event_id: 1,
      refused_connections: 1,
      breaks: 2,
      break_reasons: { ECONNRESET: 1, 'answered 502': 1 },
      events: 5,
      by_type: { status: 1, turn: 2, heartbeat: 1, ended: 1 },
      repeated_ids: 1,
      ids_out_of_order: 1,
    });
  });

  it('tells from the NATS witness whether an event was published, and after which higher id', () => {
    const published = [{ id: '10' }, { id: '12' }, { id: '11' }, { id: '13' }, { id: '9' }];
    expect(overtaken(published, '11')).toEqual({ published: true, overtaken_by: '12' });
    expect(overtaken(published, '12')).toEqual({ published: true, overtaken_by: null });
    expect(overtaken(published, '14')).toEqual({ published: false });
    expect(publishedOutOfOrder(published)).toBe(2);
  });
});
