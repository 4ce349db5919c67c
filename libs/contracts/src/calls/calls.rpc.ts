import { defineRpc } from '../messaging/rpc';
import {
  CallDataDeletionOutcome,
  DataSettingsView,
  DeleteCallDataRequest,
  ExportCallsChunkQuery,
  GetDataSettingsQuery,
  RetentionSweepBody,
  UpdateDataSettingsBody,
  type ExportCallsChunk,
  type RetentionSweepResult,
} from './call-data.dto';
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
  /** Answers once the object is gone from storage, or once its deletion is queued (docs/call-data.md). */
  deleteRecording: defineRpc<DeleteCallDataRequest, CallDataDeletionOutcome>(
    'calls.v1.recording.delete',
    DeleteCallDataRequest,
  ),
  deleteTranscript: defineRpc<DeleteCallDataRequest, CallDataDeletionOutcome>(
    'calls.v1.transcript.delete',
    DeleteCallDataRequest,
  ),
  /** One chunk of `GET /v1/calls/export`, formatted; the gateway asks for the next until `next` is null. */
  exportChunk: defineRpc<ExportCallsChunkQuery, ExportCallsChunk>('calls.v1.export.chunk', ExportCallsChunkQuery),
} as const;

/** Account-scoped: the account's storage mode and retention periods (`/v1/settings/data`). */
export const DataSettingsRpc = {
  get: defineRpc<GetDataSettingsQuery, DataSettingsView>('calls.v1.data-settings.get', GetDataSettingsQuery),
  update: defineRpc<UpdateDataSettingsBody, DataSettingsView>('calls.v1.data-settings.update', UpdateDataSettingsBody),
} as const;

/** Operator only: the retention sweep at once, as if the clock read `now`. */
export const RetentionRpc = {
  sweep: defineRpc<RetentionSweepBody, RetentionSweepResult>('calls.v1.retention.sweep', RetentionSweepBody),
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
