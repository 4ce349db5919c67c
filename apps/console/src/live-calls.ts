// The calls page's "Live now" (docs/live-calls.md): the account's calls in progress as the console's live stream
// (`GET /console/api/calls/live`, Server-Sent Events) tells them, each with its transcript so far, and a call that
// just ended for a few seconds more. The stream's events, its connection and the clock go through one reducer, so the
// component only draws; pure functions, unit-tested (live-calls.spec.ts).
import type { LiveCallEndedData, LiveCallStatusData, LiveCallTurnData } from '@switchboard/contracts';
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import { formatDuration, humanize } from './format';
import type { paths } from './console-api/generated/openapi';

/** The stream's route, as the API's description has it (a route renamed there fails the type check here). */
export const LIVE_CALLS_PATH = '/console/api/calls/live' satisfies PathsWithMethod<paths, 'get'>;

/** The events the stream sends with data for the view (LIVE_CALL_EVENT_TYPES; `end` only says why it closes). */
export const LIVE_EVENT_TYPES = ['status', 'turn', 'ended'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** How long a call that ended stays in the view, its end shown, before it leaves (the list then has it). */
export const ENDED_SHOWN_MS = 6_000;

export interface LiveTurn {
  position: number;
  role: string;
  text: string;
}

export interface LiveCall {
  id: string;
  numberId: string;
  caller: string;
  /** `in_progress` while it goes on (the stream's `status`). */
  status: string;
  startedAt: string;
  /** By position, each once (a turn sent again keeps its position). */
  turns: LiveTurn[];
  /** Its `ended` event, and when the page heard it (for how long it stays). */
  ended?: { status: string; durationSec: number; heardAt: number };
}

/**
 * `connecting`: the first connection is not open yet; `open`; `down`: lost, EventSource (or the page, after a refusal)
 * connecting again.
 */
export type LiveConnection = 'connecting' | 'open' | 'down';

export interface LiveCallsState {
  /** In the order they started: a call that starts later is added below, so the one being read does not move. */
  calls: LiveCall[];
  connection: LiveConnection;
  /** Whether the stream was ever open: until it is, the view cannot say that no call is in progress. */
  everOpen: boolean;
  /** The clock the durations tick by (ms since the epoch). */
  now: number;
  /** Grows whenever the calls list may have changed (a call started or ended, or the stream came back from a gap). */
  listVersion: number;
}

export type LiveCallsAction =
  | { type: 'status'; data: LiveCallStatusData }
  | { type: 'turn'; data: LiveCallTurnData }
  | { type: 'ended'; data: LiveCallEndedData; at: number }
  /**
   * The stream is open. `fresh`: a new connection without Last-Event-ID, whose replay is every call in progress from
   * its start, so what the view had of calls in progress is dropped and rebuilt from it (a call that ended meanwhile
   * would otherwise stay forever).
   */
  | { type: 'open'; fresh: boolean }
  | { type: 'down' }
  | { type: 'tick'; now: number };

export function initialLiveCalls(now: number): LiveCallsState {
  return { calls: [], connection: 'connecting', everOpen: false, now, listVersion: 0 };
}

/**
 * One named SSE event as an action, or undefined for data that is not what the stream sends (nothing is drawn from
 * it, and nothing throws in the page).
 */
export function liveActionOf(type: string, data: string, at: number): LiveCallsAction | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.call_id !== 'string' || parsed.call_id === '') return undefined;
  if (type === 'status' && strings(parsed, ['number_id', 'caller', 'status', 'started_at']))
    return { type, data: parsed as unknown as LiveCallStatusData };
  if (type === 'turn' && strings(parsed, ['role', 'text']) && Number.isInteger(parsed.position))
    return { type, data: parsed as unknown as LiveCallTurnData };
  if (type === 'ended' && typeof parsed.status === 'string' && typeof parsed.duration_sec === 'number')
    return { type, data: parsed as unknown as LiveCallEndedData, at };
  return undefined;
}

export function liveCallsReducer(state: LiveCallsState, action: LiveCallsAction): LiveCallsState {
  switch (action.type) {
    case 'status': {
      const { data } = action;
      const known = state.calls.find((call) => call.id === data.call_id);
      if (known?.ended) return state;
      const call: LiveCall = {
        id: data.call_id,
        numberId: data.number_id,
        caller: data.caller,
        status: data.status,
        startedAt: data.started_at,
        turns: known?.turns ?? [],
      };
      if (known) return { ...state, calls: state.calls.map((each) => (each === known ? call : each)) };
      const calls = [...state.calls, call].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
      return { ...state, calls, listVersion: state.listVersion + 1 };
    }
    case 'turn': {
      const { data } = action;
      // A call's start always comes before its turns (calls-media writes it with the call): a turn of a call the
      // view does not have belongs to one it let go of, and is left out.
      return updateCall(state, data.call_id, (call) =>
        call.ended || call.turns.some((turn) => turn.position === data.position)
          ? call
          : {
              ...call,
              turns: [...call.turns, { position: data.position, role: data.role, text: data.text }].sort(
                (a, b) => a.position - b.position,
              ),
            },
      );
    }
    case 'ended': {
      const { data, at } = action;
      const next = updateCall(state, data.call_id, (call) =>
        call.ended ? call : { ...call, ended: { status: data.status, durationSec: data.duration_sec, heardAt: at } },
      );
      // Even for a call the view does not show, the list has a call that changed.
      return { ...next, listVersion: state.listVersion + 1 };
    }
    case 'open': {
      const cameBack = state.connection === 'down';
      return {
        ...state,
        connection: 'open',
        everOpen: true,
        calls: action.fresh ? state.calls.filter((call) => call.ended) : state.calls,
        listVersion: cameBack && action.fresh ? state.listVersion + 1 : state.listVersion,
      };
    }
    case 'down':
      return state.connection === 'down' ? state : { ...state, connection: 'down' };
    case 'tick': {
      const calls = state.calls.filter((call) => !call.ended || action.now - call.ended.heardAt < ENDED_SHOWN_MS);
      return { ...state, now: action.now, calls: calls.length === state.calls.length ? state.calls : calls };
    }
  }
}

/** How long the call has gone on: from its start to now, or as its end says. Never negative (clocks differ). */
export function elapsedSeconds(call: LiveCall, now: number): number {
  if (call.ended) return call.ended.durationSec;
  const started = Date.parse(call.startedAt);
  return Number.isNaN(started) ? 0 : Math.max(0, Math.floor((now - started) / 1000));
}

/** `In progress · 1 min 05 s` while it goes on; `Ended · completed · 42 s` once it is over. */
export function liveCallStateText(call: LiveCall, now: number): string {
  const duration = formatDuration(elapsedSeconds(call, now));
  if (call.ended) return `Ended · ${call.ended.status.replace(/_/g, ' ')} · ${duration}`;
  return `${humanize(call.status)} · ${duration}`;
}

/**
 * How long the page waits before opening the stream again after a refusal (EventSource gives up on any answer but a
 * stream: 503 while the bus is away, 429 at the account's cap): 2 s, doubling, at most 30 s.
 */
export function reopenDelayMs(failures: number): number {
  return Math.min(30_000, 2_000 * 2 ** Math.max(0, failures));
}

function updateCall(state: LiveCallsState, callId: string, update: (call: LiveCall) => LiveCall): LiveCallsState {
  const known = state.calls.find((call) => call.id === callId);
  if (!known) return state;
  const updated = update(known);
  return updated === known ? state : { ...state, calls: state.calls.map((call) => (call === known ? updated : call)) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: Record<string, unknown>, names: readonly string[]): boolean {
  return names.every((name) => typeof value[name] === 'string');
}
