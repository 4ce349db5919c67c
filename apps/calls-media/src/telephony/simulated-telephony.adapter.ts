import { Inject, Injectable } from '@nestjs/common';
import {
  CALL_RECORDING_CONTENT_TYPE,
  sentimentOf,
  simulatedCallStartedAt,
  summaryOf,
  type SimulateProviderCallBody,
  type SimulatedCallAccepted,
} from '@switchboard/contracts';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CALL_REPORT_SINK, type CallReportSink } from './call-report-sink.port';
import { newCallSid } from './call-sid';
import { beepRecordingMp3 } from './mp3/beep-recording';
import type { ProviderCallReport } from './provider-call-report';

/** The simulated recording covers at most the first hour of a call (~14 MB of MP3). */
export const MAX_SIMULATED_RECORDING_SECONDS = 3600;

/**
 * The simulated telephony provider: on the operator's word it "completes" a call and reports it exactly as a
 * real provider's webhook adapter would, through the call report sink (`CallReportsService.receive`). It knows nothing of accounts.
 */
@Injectable()
export class SimulatedTelephonyAdapter {
  constructor(
    @Inject(CALL_REPORT_SINK) private readonly reports: CallReportSink,
    @Inject(CALLS_MEDIA_CONFIG) private readonly config: CallsMediaConfig,
  ) {}

  async reportCall(
    command: SimulateProviderCallBody,
    cause: { requestId?: string } = {},
  ): Promise<SimulatedCallAccepted> {
    const report: ProviderCallReport = {
      call_sid: newCallSid(),
      to: command.to,
      caller: command.caller,
      direction: command.direction ?? 'inbound',
      status: command.status ?? 'completed',
      outcome: command.outcome,
      duration_sec: command.duration_sec,
      started_at: simulatedCallStartedAt(command, new Date()),
      transcript: command.transcript ? command.transcript.map((turn) => ({ role: turn.role, text: turn.text })) : null,
      recording: command.recording
        ? {
            content_type: CALL_RECORDING_CONTENT_TYPE,
            bytes: beepRecordingMp3(Math.min(command.duration_sec, MAX_SIMULATED_RECORDING_SECONDS)),
          }
        : null,
      lost_item: command.lost_item ? { ...command.lost_item } : null,
      analysis: command.analysis
        ? {
            summary: summaryOf(command.analysis.summary),
            sentiment: sentimentOf(command.analysis.sentiment),
            successful: command.analysis.successful ?? null,
            custom: command.analysis.custom ?? {},
          }
        : null,
    };
    // A real provider's webhook is answered at once; the operator route waits a moment for the report to be
    // settled, so a call to a number whose events are still in flight is listed when the route answers.
    await this.reports.receive(report, { requestId: cause.requestId, settleWithinMs: this.config.simulatedSettleMs });
    return { call_sid: report.call_sid };
  }
}
