import { Inject, Injectable } from '@nestjs/common';
import {
  CALL_INCOMPLETE,
  CallStartedEvent,
  EMPTY_CALL_ANALYSIS,
  LIVE_EVENT_ID_PATTERN,
  ServiceError,
  type LiveCallEvent,
  type LiveCallEvents,
  type LiveCallEventsQuery,
} from '@switchboard/contracts';
import { outboxRecord } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { OutboxRelay } from '@switchboard/service-runtime';
import { DataSettingsRepository } from '../call-data/data-settings.repository';
import { contentToStore } from '../call-data/storage-mode';
import { callStartedEventId } from '../call-reports/call-event-id';
import { CallReportsService } from '../call-reports/call-reports.service';
import { attributeCall } from '../number-ownership/attribution';
import { NumberStatesRepository } from '../number-ownership/number-states.repository';
import type { LiveCallSink } from '../telephony/call-report-sink.port';
import type { ProviderCallStart, ProviderTranscriptTurn } from '../telephony/provider-call-report';
import { LiveCallEventsPublisher } from './live-call-events.publisher';
import { LiveCallsRepository, type OverdueCall } from './live-calls.repository';

/** What an incomplete call's outcome reads: the agent never said how the call ended. */
export const INCOMPLETE_OUTCOME = 'unknown';

/** How many overdue calls one pass of the incomplete close takes on. */
const CLOSE_BATCH = 100;

/**
 * Calls while they happen (docs/live-calls.md), the use cases every provider adapter calls for a call in progress:
 * its start, its transcript as it grows, the live log the streams read, and the close of a call whose end never came.
 * The end itself is the call report (`CallReportsService.receive`), as it always was: the live path never decides
 * what a completed call, its bill or its `call.completed` are.
 */
@Injectable()
export class LiveCallsService implements LiveCallSink {
  constructor(
    private readonly calls: LiveCallsRepository,
    private readonly numbers: NumberStatesRepository,
    private readonly dataSettings: DataSettingsRepository,
    private readonly reports: CallReportsService,
    private readonly publisher: LiveCallEventsPublisher,
    private readonly relay: OutboxRelay,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * A provider reported a call's start: the call is its number's owner's, in progress, from now, with `call.started`
   * on its way. A start for a number with no owner answering then, repeated, or after the call's end is left alone
   * (its end report is what records such a call, as before).
   */
  async started(start: ProviderCallStart, cause: { requestId?: string } = {}): Promise<boolean> {
    const attribution = attributeCall(await this.numbers.statesOf(start.to), {
      startedAt: start.started_at,
      reportedAt: new Date(),
    });
    if (attribution.kind !== 'owned') {
      this.logger.info({ call_sid: start.call_sid, to: start.to, attribution: attribution.kind }, 'live start ignored');
      return false;
    }
    const owner = attribution.state;
    const outbox = outboxRecord(
      CallStartedEvent,
      {
        call_sid: start.call_sid,
        account_id: owner.account_id,
        number_id: owner.number_id,
        phone_number: owner.phone_number,
        caller: start.caller,
        direction: start.direction,
        started_at: start.started_at.toISOString(),
      },
      {
        correlationId: cause.requestId ?? start.call_sid,
        causationId: start.call_sid,
        id: callStartedEventId(start.call_sid),
      },
    );
    const events = await this.calls.start(start, owner, outbox);
    if (events.length === 0) return false;
    this.relay.kick();
    this.publisher.publish(events);
    this.logger.info({ call_sid: start.call_sid, account_id: owner.account_id }, 'call started');
    return true;
  }

  /**
   * The call's transcript so far, as the provider sends it (every turn from the first, Retell's `transcript_updated`;
   * or one turn at its position): the turns not yet kept are kept, as the owner's storage mode lets them be
   * (`no_pii` redacts them, `metadata_only` keeps none), and streamed. Nothing for a call not in progress.
   */
  async transcript(callSid: string, turns: readonly ProviderTranscriptTurn[], from = 0): Promise<number> {
    const live = await this.calls.liveCallOf(callSid);
    if (!live) return 0;
    const fresh = turns
      .map((turn, index) => ({ ...turn, position: from + index }))
      .filter((turn) => turn.position >= live.turns);
    if (fresh.length === 0) return 0;
    const mode = await this.dataSettings.storageModeOf(live.account_id);
    const kept = contentToStore(mode, { transcript: fresh, analysis: EMPTY_CALL_ANALYSIS }).transcript;
    if (!kept) return 0;
    const events = await this.calls.addTurns(
      callSid,
      kept.map((turn, index) => ({ ...turn, position: fresh[index].position })),
    );
    this.publisher.publish(events);
    return events.length;
  }

  /** `LiveCallsRpc.since`: the account's log after `after` (404 for a call the account does not have). */
  async since(accountId: string, query: LiveCallEventsQuery): Promise<LiveCallEvents> {
    const after = BigInt(query.after && LIVE_EVENT_ID_PATTERN.test(query.after) ? query.after : '0');
    if (query.call_id === undefined) {
      const page = await this.calls.since(accountId, { after });
      return { events: page.events, has_more: page.hasMore, in_progress: true, last_id: page.lastId };
    }
    const call = await this.calls.callOf(accountId, query.call_id);
    if (!call) throw new ServiceError('not_found', `No call ${query.call_id}.`);
    const page = await this.calls.since(accountId, { callId: query.call_id, after });
    const inProgress = call.status === 'in_progress';
    const events: LiveCallEvent[] = page.events;
    // A call that ended without the live path (or whose log was purged) still ends its stream with `ended`; it has no
    // id of its own, as it is not in the log.
    if (!inProgress && !page.hasMore && !events.some((event) => event.type === 'ended') && after === 0n)
      events.push({
        id: '',
        account_id: accountId,
        call_id: query.call_id,
        type: 'ended',
        data: { call_id: query.call_id, status: call.status, duration_sec: call.duration_sec },
        at: new Date().toISOString(),
      });
    return { events, has_more: page.hasMore, in_progress: inProgress, last_id: page.lastId };
  }

  /**
   * Closes every call still in progress past its number's `max_call_minutes` as `incomplete`, with the duration known
   * (to the last event heard) and the turns it has, through the one way calls are recorded: billed once, one
   * `call.completed`. A late end report corrects it (`CallReportsService`). Returns how many were closed.
   */
  async closeOverdue(now = new Date()): Promise<number> {
    const overdue = await this.calls.overdue(now, CLOSE_BATCH);
    let closed = 0;
    for (const call of overdue) {
      const outcome = await this.reports.receive({
        call_sid: call.id,
        to: call.phone_number,
        caller: call.caller,
        direction: call.direction,
        status: CALL_INCOMPLETE,
        outcome: INCOMPLETE_OUTCOME,
        duration_sec: knownDuration(call),
        started_at: call.started_at,
        transcript: call.turns.length > 0 ? call.turns : null,
        recording: null,
        lost_item: null,
        analysis: null,
      });
      if (!outcome.repeated) closed += 1;
      this.logger.warn({ call_sid: call.id, state: outcome.state }, 'call closed as incomplete: no end report came');
    }
    return closed;
  }

  /** Drops live events of calls that ended `keepMinutes` ago. */
  purge(now: Date, keepMinutes: number): Promise<number> {
    return this.calls.purge(now, keepMinutes);
  }
}

/**
 * The seconds an overdue call is known to have lasted: from its start to the last event heard of it, never more than
 * its `max_call_minutes` (a start reported late, long after the call began, proves no more than that).
 */
export function knownDuration(call: Pick<OverdueCall, 'started_at' | 'last_heard_at' | 'max_call_minutes'>): number {
  const heard = Math.floor((call.last_heard_at.getTime() - call.started_at.getTime()) / 1000);
  return Math.min(Math.max(0, heard), call.max_call_minutes * 60);
}
