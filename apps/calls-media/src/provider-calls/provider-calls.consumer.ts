import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  RetellEventReceivedEvent,
  TwilioEventReceivedEvent,
  type EventEnvelope,
  type ProviderEventReceivedData,
} from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext, RetryLater } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { recordingKey } from '../call-reports/call-reports.service';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import {
  CALL_REPORT_SINK,
  LIVE_CALL_SINK,
  type CallReportSink,
  type LiveCallSink,
} from '../telephony/call-report-sink.port';
import {
  retellCallReport,
  retellCallStart,
  retellTranscriptUpdate,
  twilioCallStart,
  twilioStatusReport,
} from './provider-call-reports';
import { ProviderRecordingsRepository } from './provider-recordings.repository';
import { RecordingFetchFailed, fetchTwilioRecording } from './twilio-recording.fetcher';

export const RETELL_CALLS_DURABLE = 'calls-media-retell-calls';
export const TWILIO_CALLBACKS_DURABLE = 'calls-media-twilio-callbacks';

/** How often a report waiting for its recording, or a recording Twilio could not give yet, is tried again. */
const RETRY_MS = 5_000;
/** How many times a recording Twilio could not give is asked for before it is given up (about ten minutes). */
const MAX_RECORDING_TRIES = 120;

/**
 * Calls reported by real providers, from the PROVIDER stream (the gateway verified each webhook, ADR 0083), into the
 * one way calls come in: the call report sink (ADR 0121), as the simulated provider's are (docs/adr/0083):
 * - Retell's `call_started` and `transcript_updated`, and Twilio's `ringing` and `in-progress` statuses: the call while
 *   it goes on (docs/live-calls.md), through the live sink.
 * - Retell's `call_analyzed`: the agent's call with its transcript and outcome. When the call came through Twilio,
 *   its recording comes from Twilio's recording callback: the report waits for it (`CALL_RECORDING_WAIT_MS`), then
 *   is recorded with or without it. Other Retell events are acknowledged and left alone.
 * - Twilio's status callback of a call the agent never answered (busy, no answer, failed, canceled): a call with
 *   outcome `missed` and no transcript.
 * - Twilio's recording callback: the MP3 fetched and stored under the call's recording key, then joined with the
 *   call, whichever of the two came first.
 * Both consumers are idempotent: a report is received once per call SID, a recording stored once per recording SID.
 */
@Controller()
export class ProviderCallsConsumer {
  constructor(
    @Inject(CALL_REPORT_SINK) private readonly reports: CallReportSink,
    @Inject(LIVE_CALL_SINK) private readonly live: LiveCallSink,
    private readonly recordings: ProviderRecordingsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CALLS_MEDIA_CONFIG) private readonly config: CallsMediaConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @DurableEventPattern(RetellEventReceivedEvent, { durable: RETELL_CALLS_DURABLE, concurrency: 4, ackWaitMs: 120_000 })
  retellEvent(
    @Payload() envelope: EventEnvelope<ProviderEventReceivedData>,
    @Ctx() ctx: JetStreamContext,
  ): Promise<void> {
    return this.retell(envelope, ctx);
  }

  @DurableEventPattern(TwilioEventReceivedEvent, {
    durable: TWILIO_CALLBACKS_DURABLE,
    concurrency: 4,
    ackWaitMs: 120_000,
  })
  twilioEvent(
    @Payload() envelope: EventEnvelope<ProviderEventReceivedData>,
    @Ctx() ctx: JetStreamContext,
  ): Promise<void> {
    return this.twilio(envelope, ctx);
  }

  private async retell(envelope: EventEnvelope<ProviderEventReceivedData>, meta: JetStreamContext): Promise<void> {
    const { data } = envelope;
    if (data.kind === 'call_started' || data.kind === 'transcript_updated') return this.retellLive(envelope);
    if (data.kind !== 'call_analyzed') return;
    const report = retellCallReport(data.payload);
    if ('unusable' in report) {
      this.logger.warn({ provider_event: data.event_id, reason: report.unusable }, 'Retell call report not usable');
      return;
    }
    let recording = await this.recordings.find(report.call_sid);
    const waited = Date.now() - Date.parse(data.received_at);
    if (!recording && this.config.twilio && /^CA/.test(report.call_sid) && waited < this.config.recordingWaitMs)
      throw new RetryLater(RETRY_MS, `call ${report.call_sid} waits for its Twilio recording`);
    recording = recording ?? null;
    await this.reports.receive(
      {
        ...report,
        recording: recording
          ? {
              content_type: recording.content_type,
              stored: { key: recording.key, size: recording.size, etag: recording.etag },
            }
          : null,
      },
      { requestId: envelope.correlation_id },
    );
    if (meta.deliveryCount > 1)
      this.logger.info({ call_sid: report.call_sid, waited_ms: waited }, 'agent call reported');
  }

  /**
   * Retell's live events (docs/live-calls.md): `call_started` starts the call; `transcript_updated` carries the whole
   * transcript so far, and starts the call too when its `call_started` was lost or comes later. Neither decides
   * anything of the completed call, which is `call_analyzed`'s.
   */
  private async retellLive(envelope: EventEnvelope<ProviderEventReceivedData>): Promise<void> {
    const { data } = envelope;
    const cause = { requestId: envelope.correlation_id };
    if (data.kind === 'call_started') {
      const start = retellCallStart(data.payload);
      if ('unusable' in start)
        this.logger.warn({ provider_event: data.event_id, reason: start.unusable }, 'Retell call start not usable');
      else await this.live.started(start, cause);
      return;
    }
    const update = retellTranscriptUpdate(data.payload);
    if ('unusable' in update) {
      this.logger.warn({ provider_event: data.event_id, reason: update.unusable }, 'Retell transcript not usable');
      return;
    }
    await this.live.started(update.start, cause);
    await this.live.transcript(update.start.call_sid, update.turns);
  }

  private async twilio(envelope: EventEnvelope<ProviderEventReceivedData>, meta: JetStreamContext): Promise<void> {
    const { data } = envelope;
    if (data.kind === 'call.status') {
      const start = twilioCallStart(data.payload, new Date(data.received_at));
      if (start) {
        await this.live.started(start, { requestId: envelope.correlation_id });
        return;
      }
      const report = twilioStatusReport(data.payload, new Date(data.received_at));
      if (report) await this.reports.receive({ ...report, recording: null }, { requestId: envelope.correlation_id });
      return;
    }
    if (data.kind !== 'recording.status') return;
    const params = data.payload as Record<string, string>;
    if (params.RecordingStatus !== 'completed') return;
    if (!this.config.twilio) {
      this.logger.warn(
        { recording_sid: params.RecordingSid },
        'Twilio recording callback, but Twilio is not configured here',
      );
      return;
    }
    if (await this.recordings.known(params.RecordingSid)) return;
    const callSid = params.CallSid;
    let audio: { bytes: Uint8Array; contentType: string };
    try {
      audio = await fetchTwilioRecording(this.config.twilio, params.RecordingUrl ?? '');
    } catch (error) {
      const final = error instanceof RecordingFetchFailed && error.final;
      if (!final && meta.deliveryCount < MAX_RECORDING_TRIES) throw new RetryLater(RETRY_MS, (error as Error).message);
      this.logger.error(
        { err: error, call_sid: callSid, recording_sid: params.RecordingSid },
        'Twilio recording given up',
      );
      return;
    }
    meta.working();
    const stored = await this.storage.put(recordingKey(callSid), audio.bytes, audio.contentType);
    const recording = { key: stored.key, size: stored.size, etag: stored.etag, content_type: audio.contentType };
    await this.recordings.add(callSid, params.RecordingSid, recording);
    // The agent's report came first (it waited, then gave up): the call gets its recording now.
    const attached = await this.recordings.attachToCall(callSid, recording);
    this.logger.info({ call_sid: callSid, bytes: stored.size, attached_late: attached }, 'Twilio recording stored');
  }
}
