import { defineRpc } from '../messaging/rpc';
import { CallIdParam, CallList, CallView, ListCallsQuery, TranscriptView } from './call.dto';
import { CallStatsQuery, type CallStats } from './call-stats.dto';
import { LostItemReportQuery, LostItemReportView } from './lost-item-report.dto';
import { SimulateProviderCallBody, SimulatedCallAccepted } from './provider-call.dto';
import { DailyUsageQuery, type DailyUsage } from './usage.dto';
import { GetRecordingQuery, ReadRecordingQuery, type RecordingChunk, type RecordingInfo } from './recording.dto';

/** Account-scoped: the account travels in the `sb-account-id` header, set by the gateway. */
export const CallsRpc = {
  list: defineRpc<ListCallsQuery, CallList>('calls.v1.list', ListCallsQuery),
  get: defineRpc<CallIdParam, CallView>('calls.v1.get', CallIdParam),
  stats: defineRpc<CallStatsQuery, CallStats>('calls.v1.stats', CallStatsQuery),
  transcript: defineRpc<CallIdParam, TranscriptView>('calls.v1.transcript.get', CallIdParam),
  recording: defineRpc<GetRecordingQuery, RecordingInfo>('calls.v1.recording.get', GetRecordingQuery),
  readRecording: defineRpc<ReadRecordingQuery, RecordingChunk>('calls.v1.recording.read', ReadRecordingQuery),
  /** Calls and talk seconds per UTC day over the last `days` days, every day present (the console's usage chart). */
  usageDaily: defineRpc<DailyUsageQuery, DailyUsage>('calls.v1.usage.daily', DailyUsageQuery),
} as const;

/** Operator only: the simulated telephony provider inside calls-media reports a completed call. */
export const SimulatedProviderRpc = {
  reportCall: defineRpc<SimulateProviderCallBody, SimulatedCallAccepted>(
    'calls.v1.simulated-provider.report-call',
    SimulateProviderCallBody,
  ),
} as const;

/**
 * Internal, lostfound only (the gateway is refused it): the details of a call's lost-item report, caller's phone
 * included, which its event leaves out (docs/adr/0079). 404 not_found for another account's call.
 */
export const LostItemReportRpc = defineRpc<LostItemReportQuery, LostItemReportView>(
  'calls.v2.lost-item-report.get',
  LostItemReportQuery,
);
