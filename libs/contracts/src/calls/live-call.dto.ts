import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { defineRpc } from '../messaging/rpc';

/**
 * What a live stream (`GET /v1/calls/{call_id}/live`, `GET /v1/calls/live`) sends, as Server-Sent Events
 * (docs/live-calls.md): `status` when the call starts (and on each later status), `turn` per transcript turn,
 * `ended` once with the call's final status. Each event's SSE `id` is its `id` here: one sequence per account, so
 * `Last-Event-ID` resumes either stream exactly where it stopped.
 */
export const LIVE_CALL_EVENT_TYPES = ['status', 'turn', 'ended'] as const;
export type LiveCallEventType = (typeof LIVE_CALL_EVENT_TYPES)[number];

export interface LiveCallStatusData {
  call_id: string;
  number_id: string;
  caller: string;
  direction: string;
  status: string;
  started_at: string;
}

export interface LiveCallTurnData {
  call_id: string;
  /** 0 for the first turn; a turn sent again (a provider repeat) keeps its position. */
  position: number;
  role: string;
  text: string;
}

export interface LiveCallEndedData {
  call_id: string;
  /** `completed` (or the provider's final status), or `incomplete` when the end report never came in time. */
  status: string;
  duration_sec: number;
}

export type LiveCallEventData = LiveCallStatusData | LiveCallTurnData | LiveCallEndedData;

/** One live event as calls-media keeps it and publishes it (core NATS, `liveCallsSubject`). */
export interface LiveCallEvent {
  /** Positive integer as a string: grows with each event of the account (a bigint in calls-media's log). */
  id: string;
  account_id: string;
  call_id: string;
  type: LiveCallEventType;
  data: LiveCallEventData;
  /** When calls-media applied it (ISO 8601). */
  at: string;
}

/**
 * The core NATS subject an account's live events are published on, as they are applied (at most once: a stream that
 * misses one reads it from the log, `LiveCallsRpc.since`). The gateway's replicas each subscribe per account.
 */
export function liveCallsSubject(accountId: string): string {
  return `${LIVE_CALLS_SUBJECT}.${accountId}`;
}

/** The core NATS subjects of live call events (below the deployment prefix), one per account. */
export const LIVE_CALLS_SUBJECT = 'calls-live.v1';

/** A live event id (`Last-Event-ID`): a positive integer of at most 19 digits. */
export const LIVE_EVENT_ID_PATTERN = /^(0|[1-9]\d{0,18})$/;

/** The log's answer: the events after `after`, oldest first (account-scoped, like `CallsRpc`). */
export class LiveCallEventsQuery {
  /** One call's events only (404 `not_found` when the account has no such call); all in-progress calls otherwise. */
  @IsOptional() @IsString() @MaxLength(64) call_id?: string;
  /** Events with a greater id only; `0` (the default) from each call's start. */
  @IsOptional() @IsString() @Matches(LIVE_EVENT_ID_PATTERN) after?: string;
}

export interface LiveCallEvents {
  /** Oldest first; at most `LIVE_EVENTS_PAGE` (ask again from the last id when `has_more`). */
  events: LiveCallEvent[];
  has_more: boolean;
  /** For one call: whether it is still in progress (a stream of an ended call closes after the events). */
  in_progress: boolean;
  /**
   * The account's last live event id when the log was read ('0': none yet). Ids are given in commit order with no gap,
   * so every event up to it is in the log: a stream that then hears an id past the one after it has missed some.
   */
  last_id: string;
}

export const LIVE_EVENTS_PAGE = 500;

export const LiveCallsRpc = {
  /** Account-scoped: the log of live events after an id (the replay a stream starts with). */
  since: defineRpc<LiveCallEventsQuery, LiveCallEvents>('calls.v1.live.since', LiveCallEventsQuery),
} as const;
