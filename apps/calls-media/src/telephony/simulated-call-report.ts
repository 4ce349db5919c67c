import {
  CALL_RECORDING_CONTENT_TYPE,
  sentimentOf,
  summaryOf,
  type SimulateProviderCallBody,
} from '@switchboard/contracts';
import { beepRecordingMp3 } from './mp3/beep-recording';
import type { ProviderCallReport } from './provider-call-report';

/** The simulated recording covers at most the first hour of a call (~14 MB of MP3). */
export const MAX_SIMULATED_RECORDING_SECONDS = 3600;

/** The completed call's report, as a real provider's adapter would hand it on. */
export function simulatedCallReport(
  callSid: string,
  command: SimulateProviderCallBody,
  startedAt: Date,
): ProviderCallReport {
  return {
    call_sid: callSid,
    to: command.to,
    caller: command.caller,
    direction: command.direction ?? 'inbound',
    status: command.status ?? 'completed',
    outcome: command.outcome,
    duration_sec: command.duration_sec,
    started_at: startedAt,
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
}
