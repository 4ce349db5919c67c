import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  DEFAULT_USAGE_DAYS,
  ServiceError,
  type CallList,
  type CallView,
  type DailyUsage,
  type DailyUsageQuery,
  type ListCallsQuery,
  type RecordingChunk,
  type RecordingInfo,
  type TranscriptView,
} from '@switchboard/contracts';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import { CallsRepository, type CallRecord } from './calls.repository';

/** Reading an account's calls, transcripts and recordings. Another account's call is answered as unknown. */
@Injectable()
export class CallsService {
  constructor(
    private readonly calls: CallsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  async list(accountId: string, query: ListCallsQuery): Promise<CallList> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const since = query.since ? new Date(query.since) : undefined;
    const until = query.until ? new Date(query.until) : undefined;
    if (since && until && since.getTime() > until.getTime()) {
      throw new ServiceError('invalid_request', 'since must not be after until');
    }
    let after: CallRecord | null = null;
    if (query.starting_after !== undefined) {
      after = await this.calls.findForAccount(accountId, query.starting_after);
      if (!after) throw new ServiceError('invalid_request', 'starting_after is not the id of one of your calls');
    }
    const rows = await this.calls.list(
      {
        accountId,
        numberId: query.number_id ? normalizeNumberId(query.number_id) : undefined,
        since,
        until,
        after: after ? { started_at: after.started_at, seq: after.seq } : undefined,
      },
      limit + 1,
    );
    return { data: rows.slice(0, limit).map(toView), has_more: rows.length > limit };
  }

  /** The console's usage chart: the last `days` UTC days, today included, every day present. */
  async dailyUsage(accountId: string, query: DailyUsageQuery, now = new Date()): Promise<DailyUsage> {
    const days = query.days ?? DEFAULT_USAGE_DAYS;
    return { data: await this.calls.dailyUsage(accountId, now.toISOString().slice(0, 10), days) };
  }

  /** `GET /calls/{call_id}`: one call as the list shows it; another account's call is answered as unknown. */
  async get(accountId: string, callId: string): Promise<CallView> {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    return toView(call);
  }

  async transcript(accountId: string, callId: string): Promise<TranscriptView> {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    if (!call.has_transcript) throw new ServiceError('not_found', 'This call has no transcript.');
    return { call_sid: call.id, turns: await this.calls.transcriptOf(call.id) };
  }

  async recording(accountId: string, callId: string): Promise<RecordingInfo> {
    const { call, recording } = await this.requireRecording(accountId, callId);
    return { call_sid: call.id, content_type: recording.content_type, size: recording.size, etag: recording.etag };
  }

  /** Bytes `[offset, offset + length)` of the recording, fewer at its end, none past it. */
  async readRecording(accountId: string, callId: string, offset: number, length: number): Promise<RecordingChunk> {
    const { recording } = await this.requireRecording(accountId, callId);
    const available = Math.max(0, Math.min(length, recording.size - offset));
    const bytes = available > 0 ? await this.storage.read(recording.key, offset, available) : new Uint8Array(0);
    return { offset, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  }

  private async requireRecording(accountId: string, callId: string) {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    if (!call.recording_key || call.recording_size === null || !call.recording_etag) {
      throw new ServiceError('no_recording', 'This call has no recording.');
    }
    return {
      call,
      recording: {
        key: call.recording_key,
        size: call.recording_size,
        etag: call.recording_etag,
        content_type: call.recording_content_type ?? 'audio/mpeg',
      },
    };
  }
}

function callNotFound(): ServiceError {
  return new ServiceError('not_found', 'No call with that id.');
}

function normalizeNumberId(id: string): string {
  return id.startsWith('num_') ? id : `num_${id}`;
}

export function toView(call: CallRecord): CallView {
  return {
    id: call.id,
    number_id: call.number_id,
    phone_number: call.phone_number,
    caller: call.caller,
    direction: call.direction,
    status: call.status,
    outcome: call.outcome,
    duration_sec: call.duration_sec,
    started_at: call.started_at.toISOString(),
    has_recording: call.recording_key !== null,
    has_transcript: call.has_transcript,
  };
}
