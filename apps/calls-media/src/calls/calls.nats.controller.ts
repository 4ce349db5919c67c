import { Injectable } from '@nestjs/common';
import {
  CallsRpc,
  ServiceError,
  type CallIdParam,
  type CallList,
  type CallView,
  type GetRecordingQuery,
  type ListCallsQuery,
  type ReadRecordingQuery,
  type RecordingChunk,
  type RecordingInfo,
  type TranscriptView,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { CallsService } from './calls.service';

/** The public calls routes, forwarded by the gateway with the caller's account in `ctx`. */
@Injectable()
export class CallsNatsController {
  constructor(private readonly calls: CallsService) {}

  @RpcHandler(CallsRpc.list)
  list(request: ListCallsQuery, ctx: RpcContext): Promise<CallList> {
    return this.calls.list(account(ctx), request);
  }

  @RpcHandler(CallsRpc.get)
  get(request: CallIdParam, ctx: RpcContext): Promise<CallView> {
    return this.calls.get(account(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.transcript)
  transcript(request: CallIdParam, ctx: RpcContext): Promise<TranscriptView> {
    return this.calls.transcript(account(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.recording)
  recording(request: GetRecordingQuery, ctx: RpcContext): Promise<RecordingInfo> {
    return this.calls.recording(account(ctx), request.call_id);
  }

  @RpcHandler(CallsRpc.readRecording)
  readRecording(request: ReadRecordingQuery, ctx: RpcContext): Promise<RecordingChunk> {
    return this.calls.readRecording(account(ctx), request.call_id, request.offset, request.length);
  }
}

function account(ctx: RpcContext): string {
  if (!ctx.accountId) throw new ServiceError('unauthorized', 'This request needs an authenticated account.');
  return ctx.accountId;
}
