import { Injectable } from '@nestjs/common';
import {
  CallsRpc,
  type CallIdParam,
  type CallList,
  type CallView,
  type DailyUsage,
  type DailyUsageQuery,
  type GetRecordingQuery,
  type ListCallsQuery,
  type ReadRecordingQuery,
  type RecordingChunk,
  type RecordingInfo,
  type TranscriptView,
} from '@switchboard/contracts';
import { RpcHandler, requireAccount, type RpcContext } from '@switchboard/messaging';
import { CallsService } from './calls.service';

/** The public calls routes, forwarded by the gateway with the caller's account in `ctx`. */
@Injectable()
export class CallsNatsController {
  constructor(private readonly calls: CallsService) {}

  @RpcHandler(CallsRpc.list)
  list(request: ListCallsQuery, ctx: RpcContext): Promise<CallList> {
    return this.calls.list(requireAccount(ctx), request);
  }

  @RpcHandler(CallsRpc.get)
  get(request: CallIdParam, ctx: RpcContext): Promise<CallView> {
    return this.calls.get(requireAccount(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.transcript)
  transcript(request: CallIdParam, ctx: RpcContext): Promise<TranscriptView> {
    return this.calls.transcript(requireAccount(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.recording)
  recording(request: GetRecordingQuery, ctx: RpcContext): Promise<RecordingInfo> {
    return this.calls.recording(requireAccount(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.usageDaily)
  usageDaily(request: DailyUsageQuery, ctx: RpcContext): Promise<DailyUsage> {
    return this.calls.dailyUsage(requireAccount(ctx), request);
  }

  @RpcHandler(CallsRpc.readRecording)
  readRecording(request: ReadRecordingQuery, ctx: RpcContext): Promise<RecordingChunk> {
    return this.calls.readRecording(requireAccount(ctx), request.call_id, request.offset, request.length);
  }
}
