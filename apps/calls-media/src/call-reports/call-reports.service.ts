import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import {
  CALL_INCOMPLETE,
  CallCompletedEvent,
  CallUpdatedEvent,
  type CallUpdatedData,
  EMPTY_CALL_ANALYSIS,
  LOST_ITEM_REPORT_OUTCOME,
  LostItemReportedEvent,
  fitCustomAnalysis,
  type CallAnalysisView,
  type CallCompletedData,
  type StorageMode,
} from '@switchboard/contracts';
import { outboxRecord, type OutboxRow } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { OutboxRelay } from '@switchboard/service-runtime';
import { CallDataService } from '../call-data/call-data.service';
import { DataSettingsRepository } from '../call-data/data-settings.repository';
import { contentToStore, keepsRecording } from '../call-data/storage-mode';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { attributeCall, type NumberOwnershipState } from '../number-ownership/attribution';
import { AnalysisFieldsRepository } from '../number-ownership/analysis-fields.repository';
import { NumberStatesRepository } from '../number-ownership/number-states.repository';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import type { ProviderCallReport } from '../telephony/provider-call-report';
import { callCompletedEventId, callUpdatedEventId, lostItemReportedEventId } from './call-event-id';
import { LIVE_EVENTS_OUTLET, type LiveEventsOutlet } from './live-events.port';
import {
  CallReportsRepository,
  type DiscardReason,
  type NewReport,
  type PendingReport,
  type Recorded,
  type ReportState,
  type StoredRecording,
} from './call-reports.repository';

export interface ReceiveOptions {
  /** The request the report came with (the operator's, for the simulated provider), for tracing. */
  requestId?: string;
  /** Keep trying to settle a waiting report for this long before returning (0: return at once). */
  settleWithinMs?: number;
}

export interface ReceiveOutcome {
  call_sid: string;
  state: ReportState;
  /** True when a report with this SID had already been received: nothing was done. */
  repeated: boolean;
}

const SETTLE_POLL_MS = 50;

/** A report as the owner's storage mode keeps it (`keptOf`). */
interface KeptReport {
  report: NewReport;
  analysis: CallAnalysisView;
  droppedRecording: string | null;
}

/**
 * The use case every provider adapter calls: receive a report of a completed call, once per call SID, and turn
 * it into a call of the account that owned the number when the call started (docs/adr/0121). A report
 * for a number nobody owns yet waits for the number's events for a grace period, then is discarded.
 */
@Injectable()
export class CallReportsService {
  constructor(
    private readonly reports: CallReportsRepository,
    private readonly numbers: NumberStatesRepository,
    private readonly analysisFields: AnalysisFieldsRepository,
    private readonly dataSettings: DataSettingsRepository,
    private readonly callData: CallDataService,
    private readonly relay: OutboxRelay,
    @Inject(LIVE_EVENTS_OUTLET) private readonly live: LiveEventsOutlet,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CALLS_MEDIA_CONFIG) private readonly config: CallsMediaConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async receive(report: ProviderCallReport, options: ReceiveOptions = {}): Promise<ReceiveOutcome> {
    // Most reports reach a number whose owner is known: the report is then stored already recorded, with its call
    // and outbox row, in one statement whose insert is also the repeat check. Any other report is stored pending
    // and settled as a waiting one is.
    const receivedAt = new Date();
    const { states, storageModes } = await this.numbers.ownersOf(report.to);
    const attribution = attributeCall(states, { startedAt: report.started_at, reportedAt: receivedAt });
    // An owner whose storage mode keeps no recording: the audio is never written (docs/call-data.md). Read with the
    // number's states, in one statement, and handed to keptOf.
    const mode = attribution.kind === 'owned' ? storageModes.get(attribution.state.account_id) : undefined;
    const storesAudio = mode === undefined || keepsRecording(mode);

    // The audio goes first: a report row never points at audio that is not stored. A repeat racing this one
    // rewrites the same key with the same call's audio, which is harmless.
    let recording: StoredRecording | null = null;
    if (report.recording && 'stored' in report.recording) {
      recording = { ...report.recording.stored, content_type: report.recording.content_type };
    } else if (report.recording && storesAudio) {
      const stored = await this.storage.put(
        recordingKey(report.call_sid),
        report.recording.bytes,
        report.recording.content_type,
      );
      recording = { ...stored, content_type: report.recording.content_type };
    }
    const received: NewReport = {
      call_sid: report.call_sid,
      to: report.to,
      started_at: report.started_at,
      details: {
        caller: report.caller,
        direction: report.direction,
        status: report.status,
        outcome: report.outcome,
        duration_sec: report.duration_sec,
        transcript: report.transcript,
        lost_item: report.outcome === LOST_ITEM_REPORT_OUTCOME ? (report.lost_item ?? null) : null,
        analysis: report.analysis ?? null,
      },
      recording,
    };

    let state: ReportState;
    if (attribution.kind === 'owned') {
      const kept = await this.keptOf(received, attribution.state, mode);
      const outbox = outboxRows(kept.report, attribution.state, kept.analysis, options.requestId);
      const recorded = await this.reports.addRecorded(
        kept.report,
        receivedAt,
        attribution.state,
        kept.analysis,
        outbox,
        kept.droppedRecording,
      );
      if (!recorded) {
        // A report of a call already recorded: a repeat, or the late end of a call closed as incomplete.
        if (await this.correctIncomplete(kept, attribution.state, options.requestId))
          return { call_sid: report.call_sid, state: 'recorded', repeated: false };
        return this.repeated(received);
      }
      this.recorded(report.call_sid, attribution.state, kept.droppedRecording, recorded);
      state = 'recorded';
    } else {
      const pending = await this.reports.addPending(received);
      if (!pending) return this.repeated(received);
      state = await this.settle(report.call_sid, options.requestId, pending);
      const deadline = Date.now() + (options.settleWithinMs ?? 0);
      while (state === 'pending' && Date.now() < deadline) {
        await sleep(Math.min(SETTLE_POLL_MS, Math.max(1, deadline - Date.now())));
        state = await this.settle(report.call_sid, options.requestId);
      }
    }
    this.logger.info({ call_sid: report.call_sid, to: report.to, state }, 'call report received');
    return { call_sid: report.call_sid, state, repeated: false };
  }

  /**
   * Tries to settle one waiting report: record the call for the number's owner, drop it (paused number, or the
   * grace period for an unowned number is over), or leave it waiting. Safe to run concurrently. `waiting`: the
   * report as just stored, when the caller has it (otherwise it is read).
   */
  async settle(callSid: string, requestId?: string, waiting?: PendingReport): Promise<ReportState> {
    const report = waiting ?? (await this.reports.findPending(callSid));
    if (!report) return (await this.reports.stateOf(callSid)) ?? 'discarded';
    const attribution = attributeCall(await this.numbers.statesOf(report.to), {
      startedAt: report.started_at,
      reportedAt: report.received_at,
    });
    switch (attribution.kind) {
      case 'owned': {
        const kept = await this.keptOf(report, attribution.state);
        const outbox = outboxRows(kept.report, attribution.state, kept.analysis, requestId);
        const recorded = await this.reports.record(
          { ...report, ...kept.report },
          attribution.state,
          kept.analysis,
          outbox,
          kept.droppedRecording,
        );
        if (recorded) {
          this.recorded(callSid, attribution.state, kept.droppedRecording, recorded);
          return 'recorded';
        }
        break;
      }
      case 'paused':
        if (await this.discard(report, 'paused')) return 'discarded';
        break;
      case 'unowned':
        if (Date.now() - report.received_at.getTime() < this.config.attributionGraceMs) return 'pending';
        if (await this.discard(report, 'not_owned')) return 'discarded';
        break;
      case 'ambiguous': {
        // Never chosen between silently (ADR 0121): it waits, as a release on its way may settle it, and is logged
        // each time it is tried; past the grace it is discarded, still naming both owners.
        const owners = attribution.states.map((s) => ({ number_id: s.number_id, account_id: s.account_id }));
        this.logger.error(
          { call_sid: callSid, to: report.to, started_at: report.started_at.toISOString(), owners },
          'call report matches two numbers holding the phone number at once: recorded for neither',
        );
        if (Date.now() - report.received_at.getTime() < this.config.attributionGraceMs) return 'pending';
        if (await this.discard(report, 'ambiguous_owner')) return 'discarded';
        break;
      }
    }
    // Another worker settled it first: its state is the database's.
    return (await this.reports.stateOf(callSid)) ?? 'discarded';
  }

  /** Reports waiting for this phone number's owner, tried again (a number event just arrived). */
  async settleWaitingFor(phoneNumber: string): Promise<void> {
    for (const callSid of await this.reports.pendingSids({ to: phoneNumber })) await this.settle(callSid);
  }

  /** Every waiting report tried again; the ones past the grace period discarded. Returns how many were tried. */
  async sweep(): Promise<number> {
    const sids = await this.reports.pendingSids();
    for (const callSid of sids) await this.settle(callSid);
    return sids.length;
  }

  /**
   * The call's analysis as it is kept: the provider's custom values checked against the fields the owner's number
   * declares (read only when there are values to check); a value that does not fit is dropped and logged, never kept
   * as something else (docs/call-analysis.md).
   */
  private async analysisOf(report: NewReport, owner: NumberOwnershipState): Promise<CallAnalysisView> {
    const given = report.details.analysis;
    if (!given) return EMPTY_CALL_ANALYSIS;
    const values = Object.keys(given.custom).length > 0 ? given.custom : null;
    const fields = values ? await this.analysisFields.fieldsOf(owner.number_id) : [];
    const { custom, dropped } = fitCustomAnalysis(fields, values ?? {});
    if (dropped.length > 0) {
      this.logger.warn(
        { call_sid: report.call_sid, number_id: owner.number_id, dropped },
        'analysis values that do not fit the declared fields were dropped',
      );
    }
    return { summary: given.summary, sentiment: given.sentiment, successful: given.successful, custom };
  }

  /**
   * The report as the owner's storage mode lets it be stored (docs/call-data.md): its checked analysis and its
   * transcript, redacted or left out, and its recording, or the key of a stored one the mode does not keep.
   */
  private async keptOf(report: NewReport, owner: NumberOwnershipState, knownMode?: StorageMode): Promise<KeptReport> {
    const analysis = await this.analysisOf(report, owner);
    const mode = knownMode ?? (await this.dataSettings.storageModeOf(owner.account_id));
    if (mode === 'everything') return { report, analysis, droppedRecording: null };
    const content = contentToStore(mode, { transcript: report.details.transcript, analysis });
    const keep = keepsRecording(mode);
    return {
      report: {
        ...report,
        details: { ...report.details, transcript: content.transcript },
        recording: keep ? report.recording : null,
      },
      analysis: content.analysis,
      droppedRecording: keep ? null : (report.recording?.key ?? null),
    };
  }

  /**
   * The late end report of a call closed as `incomplete` (docs/live-calls.md): the call corrected, and `call.updated`
   * sent once, from which numbers-billing adjusts the talk time billed; never a second `call.completed`. False when
   * the call was not incomplete (a plain repeat).
   */
  private async correctIncomplete(
    kept: KeptReport,
    owner: NumberOwnershipState,
    requestId: string | undefined,
  ): Promise<boolean> {
    const callSid = kept.report.call_sid;
    // The previous status and duration are the database's, set in the statement under the call's lock.
    const data: CallUpdatedData = {
      ...callCompletedData(kept.report, owner, kept.analysis),
      previous_status: CALL_INCOMPLETE,
      previous_duration_sec: 0,
    };
    const updated = outboxRecord(CallUpdatedEvent, data, {
      correlationId: requestId ?? callSid,
      causationId: callSid,
      id: callUpdatedEventId(callSid),
    });
    const previous = await this.reports.correctIncomplete(kept.report, kept.analysis, updated, kept.droppedRecording);
    if (!previous) return false;
    this.recorded(callSid, owner, kept.droppedRecording);
    this.logger.info(
      { call_sid: callSid, ...previous, duration_sec: kept.report.details.duration_sec },
      'incomplete call corrected by its late end report',
    );
    return true;
  }

  /**
   * `droppedRecording`: queued for deletion with the call; deleted from storage now (a failure is retried later).
   * `recorded.ended`: the live streams learn that a call in progress ended.
   */
  private recorded(
    callSid: string,
    owner: NumberOwnershipState,
    droppedRecording: string | null,
    recorded?: Recorded,
  ): void {
    this.relay.kick();
    if (recorded?.ended) this.live.publish([recorded.ended]);
    if (droppedRecording)
      this.callData
        .drain([droppedRecording])
        .catch((err: unknown) => this.logger.warn({ err, call_sid: callSid }, 'dropped recording stays queued'));
    this.logger.info({ call_sid: callSid, account_id: owner.account_id, number_id: owner.number_id }, 'call recorded');
  }

  /** False when the report was no longer pending. */
  private async discard(report: PendingReport, reason: DiscardReason): Promise<boolean> {
    if (!(await this.reports.discard(report.call_sid, reason))) return false;
    this.logger.info(
      { call_sid: report.call_sid, to: report.to, reason },
      'call report discarded: no call is recorded',
    );
    if (report.recording) await this.deleteRecording(report.recording.key);
    return true;
  }

  /** A report with this SID was already there: nothing more is done, except for the audio this copy wrote. */
  private async repeated(report: NewReport): Promise<ReceiveOutcome> {
    const state = (await this.reports.stateOf(report.call_sid)) ?? 'pending';
    // The first copy was discarded and its audio deleted: the audio this copy stored again belongs to nothing.
    if (state === 'discarded' && report.recording) await this.deleteRecording(report.recording.key);
    this.logger.info({ call_sid: report.call_sid, state }, 'repeated call report ignored');
    return { call_sid: report.call_sid, state, repeated: true };
  }

  private async deleteRecording(key: string): Promise<void> {
    await this.storage
      .delete(key)
      .catch((err: unknown) => this.logger.warn({ err, key }, 'could not delete the recording of a discarded report'));
  }
}

export function recordingKey(callSid: string): string {
  return `${callSid}.mp3`;
}

/**
 * The call's outbox rows: `call.completed`, and `call.lost_item_reported` when the agent took a lost-item report
 * (ids and category only: the caller's phone and words stay here, docs/adr/0079). Ids derived from the call SID.
 */
function outboxRows(
  report: NewReport,
  owner: NumberOwnershipState,
  analysis: CallAnalysisView,
  requestId: string | undefined,
): OutboxRow[] {
  const rows = [callCompletedOutboxRow(report, owner, analysis, requestId)];
  const lost = report.details.lost_item;
  if (lost) {
    rows.push(
      outboxRecord(
        LostItemReportedEvent,
        {
          call_sid: report.call_sid,
          account_id: owner.account_id,
          number_id: owner.number_id,
          category: lost.category,
          reported_at: new Date(report.started_at.getTime() + report.details.duration_sec * 1000).toISOString(),
        },
        {
          correlationId: requestId ?? report.call_sid,
          causationId: report.call_sid,
          id: lostItemReportedEventId(report.call_sid),
        },
      ),
    );
  }
  return rows;
}

/** The `call.completed` outbox row, its envelope id derived from the call SID. */
function callCompletedOutboxRow(
  report: NewReport,
  owner: NumberOwnershipState,
  analysis: CallAnalysisView,
  requestId: string | undefined,
): OutboxRow {
  return outboxRecord(CallCompletedEvent, callCompletedData(report, owner, analysis), {
    correlationId: requestId ?? report.call_sid,
    causationId: report.call_sid,
    id: callCompletedEventId(report.call_sid),
  });
}

/** The call as `call.completed` (and `call.updated`) carry it. */
function callCompletedData(
  report: NewReport,
  owner: NumberOwnershipState,
  analysis: CallAnalysisView,
): CallCompletedData {
  return {
    call_sid: report.call_sid,
    account_id: owner.account_id,
    number_id: owner.number_id,
    phone_number: owner.phone_number,
    caller: report.details.caller,
    direction: report.details.direction,
    status: report.details.status,
    outcome: report.details.outcome,
    duration_sec: report.details.duration_sec,
    started_at: report.started_at.toISOString(),
    has_recording: report.recording !== null,
    has_transcript: (report.details.transcript ?? []).length > 0,
    analysis,
  };
}
