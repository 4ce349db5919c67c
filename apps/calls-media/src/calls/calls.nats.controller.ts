import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CallsRpc,
  type CallIdParam,
  type CallList,
  type CallStats,
  type CallStatsQuery,
  type CallView,
  type DailyUsage,
  type DailyUsageQuery,
  type ExportCallsChunk,
  type ExportCallsChunkQuery,
  type GetRecordingQuery,
  type ListCallsQuery,
  type ReadRecordingQuery,
  type RecordingChunk,
  type RecordingInfo,
  type TranscriptView,
} from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { CallsService } from './calls.service';

/** The public calls routes, forwarded by the gateway with the caller's account in `ctx`. */
@Controller()
export class CallsNatsController {
  constructor(private readonly calls: CallsService) {}

  @RpcPattern(CallsRpc.list)
  list(@Payload() request: ListCallsQuery, @Caller() ctx: RpcContext): Promise<CallList> {
    return this.calls.list(requireAccount(ctx), request);
  }

  @RpcPattern(CallsRpc.get)
  get(@Payload() request: CallIdParam, @Caller() ctx: RpcContext): Promise<CallView> {
    return this.calls.get(requireAccount(ctx), request.call_id);
  }

  @RpcPattern(CallsRpc.stats)
  stats(@Payload() request: CallStatsQuery, @Caller() ctx: RpcContext): Promise<CallStats> {
    return this.calls.stats(requireAccount(ctx), request);
  }

  @RpcPattern(CallsRpc.transcript)
  transcript(@Payload() request: CallIdParam, @Caller() ctx: RpcContext): Promise<TranscriptView> {
    return this.calls.transcript(requireAccount(ctx), request.call_id);
  }

  @RpcPattern(CallsRpc.recording)
  recording(@Payload() request: GetRecordingQuery, @Caller() ctx: RpcContext): Promise<RecordingInfo> {
    return this.calls.recording(requireAccount(ctx), request.call_id);
  }

  @RpcPattern(CallsRpc.usageDaily)
  usageDaily(@Payload() request: DailyUsageQuery, @Caller() ctx: RpcContext): Promise<DailyUsage> {
    return this.calls.dailyUsage(requireAccount(ctx), request);
  }

  @RpcPattern(CallsRpc.exportChunk)
  exportChunk(@Payload() request: ExportCallsChunkQuery, @Caller() ctx: RpcContext): Promise<ExportCallsChunk> {
    return this.calls.exportChunk(requireAccount(ctx), request);
  }

  @RpcPattern(CallsRpc.readRecording)
  readRecording(@Payload() request: ReadRecordingQuery, @Caller() ctx: RpcContext): Promise<RecordingChunk> {
    return this.calls.readRecording(requireAccount(ctx), request.call_id, request.offset, request.length);
  }
}
