import { LIVE_CALL_EVENT_TYPES } from '@switchboard/contracts';
import {
  ENDED_SHOWN_MS,
  LIVE_EVENT_TYPES,
  elapsedSeconds,
  initialLiveCalls,
  liveActionOf,
  liveCallStateText,
  liveCallsReducer,
  reopenDelayMs,
  type LiveCallsAction,
  type LiveCallsState,
} from './live-calls';

const T0 = Date.parse('2026-12-02T10:00:00Z');

function status(callId: string, startedAt = '2026-12-02T10:00:00Z', callStatus = 'in_progress'): LiveCallsAction {
  return {
    type: 'status',
    data: {
      call_id: callId,
      number_id: 'num_1',
      caller: '+14155550199',
      direction: 'inbound',
      status: callStatus,
      started_at: startedAt,
    },
  };
}

function turn(callId: string, position: number, text = `turn ${position}`): LiveCallsAction {
  return { type: 'turn', data: { call_id: callId, position, role: position % 2 ? 'caller' : 'agent', text } };
}

function ended(callId: string, at: number, duration_sec = 42): LiveCallsAction {
  return { type: 'ended', data: { call_id: callId, status: 'completed', duration_sec }, at };
}

function play(actions: LiveCallsAction[], from: LiveCallsState = initialLiveCalls(T0)): LiveCallsState {
  return actions.reduce(liveCallsReducer, from);
}

describe("the calls page's Live now", () => {
  it('reads the events the stream sends with data, and leaves out what is not one', () => {
    expect(LIVE_EVENT_TYPES).toEqual(LIVE_CALL_EVENT_TYPES);
    expect(liveActionOf('turn', '{"call_id":"CA1","position":0,"role":"agent","text":"Hello"}', T0)).toEqual(
      turn('CA1', 0, 'Hello'),
    );
    expect(liveActionOf('ended', '{"call_id":"CA1","status":"completed","duration_sec":42}', T0)).toEqual(
      ended('CA1', T0),
    );
    expect(liveActionOf('status', JSON.stringify((status('CA1') as { data: object }).data), T0)).toEqual(status('CA1'));
    for (const [type, data] of [
      ['turn', 'not json'],
      ['turn', '{"call_id":"CA1","position":"0","role":"agent","text":"Hello"}'],
      ['status', '{"call_id":"CA1"}'],
      ['ended', '["CA1"]'],
      ['end', '{"reason":"shutdown","message":"The server is stopping."}'],
    ])
      expect([type, data, liveActionOf(type, data, T0)]).toEqual([type, data, undefined]);
  });

  it('shows a call from its start with its turns in order, each once, whatever order they come in', () => {
    const state = play([
      { type: 'open', fresh: true },
      status('CA1'),
      turn('CA1', 0),
      turn('CA1', 2),
      turn('CA1', 1),
      turn('CA1', 1, 'a repeat'),
    ]);
    expect(state.connection).toBe('open');
    expect(state.calls).toEqual([
      {
        id: 'CA1',
        numberId: 'num_1',
        caller: '+14155550199',
        status: 'in_progress',
        startedAt: '2026-12-02T10:00:00Z',
        turns: [
          { position: 0, role: 'agent', text: 'turn 0' },
          { position: 1, role: 'caller', text: 'turn 1' },
          { position: 2, role: 'agent', text: 'turn 2' },
        ],
      },
    ]);
  });

  it('lists calls in the order they started, a later status keeping the turns so far', () => {
    const state = play([
      status('CA2', '2026-12-02T10:00:05Z'),
      status('CA1', '2026-12-02T10:00:01Z'),
      turn('CA1', 0),
      status('CA1', '2026-12-02T10:00:01Z', 'ringing'),
    ]);
    expect(state.calls.map((call) => [call.id, call.status, call.turns.length])).toEqual([
      ['CA1', 'ringing', 1],
      ['CA2', 'in_progress', 0],
    ]);
  });

  it('leaves out the turns and ends of a call it does not show (its start always comes first)', () => {
    const state = play([status('CA1'), turn('CA9', 0)]);
    expect(state.calls.map((call) => call.id)).toEqual(['CA1']);
    expect(state.calls[0].turns).toEqual([]);
  });

  it('shows a call that ended for a few seconds, its duration as the end says, then lets it go', () => {
    let state = play([status('CA1'), turn('CA1', 0), ended('CA1', T0 + 43_000), turn('CA1', 1)]);
    const [call] = state.calls;
    expect(call.ended).toEqual({ status: 'completed', durationSec: 42, heardAt: T0 + 43_000 });
    expect(call.turns).toHaveLength(1);
    expect(liveCallStateText(call, T0 + 99_000)).toBe('Ended · completed · 42 s');
    // A repeated start of an ended call does not bring it back.
    expect(liveCallsReducer(state, status('CA1'))).toBe(state);

    state = liveCallsReducer(state, { type: 'tick', now: T0 + 43_000 + ENDED_SHOWN_MS - 1 });
    expect(state.calls).toHaveLength(1);
    state = liveCallsReducer(state, { type: 'tick', now: T0 + 43_000 + ENDED_SHOWN_MS });
    expect(state.calls).toEqual([]);
  });

  it('ticks the duration of a call in progress from its start, never below zero', () => {
    const state = play([status('CA1'), { type: 'tick', now: T0 + 65_400 }]);
    const [call] = state.calls;
    expect(elapsedSeconds(call, state.now)).toBe(65);
    expect(liveCallStateText(call, state.now)).toBe('In progress · 1 min 05 s');
    // The browser's clock a little behind the server's.
    expect(elapsedSeconds(call, T0 - 3_000)).toBe(0);
  });

  it('asks the calls list to refresh when a call starts or ends, and after a gap the stream did not resume', () => {
    let state = play([{ type: 'open', fresh: true }]);
    expect([state.listVersion, state.everOpen]).toEqual([0, true]);
    state = play([status('CA1')], state);
    expect(state.listVersion).toBe(1);
    state = play([turn('CA1', 0)], state);
    expect(state.listVersion).toBe(1);
    state = play([ended('CA1', T0)], state);
    expect(state.listVersion).toBe(2);
    // EventSource's own reconnection resumes after Last-Event-ID: nothing was missed.
    state = play([{ type: 'down' }, { type: 'open', fresh: false }], state);
    expect(state.listVersion).toBe(2);
    // A new connection after a refusal: a call may have ended in the gap.
    state = play([{ type: 'down' }, { type: 'open', fresh: true }], state);
    expect(state.listVersion).toBe(3);
  });

  it('rebuilds the calls in progress from the replay of a new connection, keeping an end still shown', () => {
    let state = play([status('CA1'), status('CA2', '2026-12-02T10:00:09Z'), turn('CA2', 0), ended('CA1', T0)]);
    state = play([{ type: 'down' }], state);
    expect(state.connection).toBe('down');
    expect(state.calls).toHaveLength(2);
    state = play([{ type: 'open', fresh: true }], state);
    expect(state.calls.map((call) => call.id)).toEqual(['CA1']);
    // The replay: CA2 from its start (CA3 ended while the page was away, so it is not in it).
    state = play([status('CA2', '2026-12-02T10:00:09Z'), turn('CA2', 0), turn('CA2', 1)], state);
    expect(state.calls.map((call) => [call.id, call.turns.length])).toEqual([
      ['CA1', 0],
      ['CA2', 2],
    ]);
  });

  it('knows whether the stream was ever open, so a first connection refused does not claim that no call is on', () => {
    expect(play([{ type: 'down' }])).toMatchObject({ connection: 'down', everOpen: false });
    expect(play([{ type: 'open', fresh: true }, { type: 'down' }])).toMatchObject({
      connection: 'down',
      everOpen: true,
    });
  });

  it('opens the stream again after a refusal 2 s later, doubling, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(reopenDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});
