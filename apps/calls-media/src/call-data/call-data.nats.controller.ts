import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CallsRpc,
  DataSettingsRpc,
  RetentionRpc,
  type CallDataDeletionOutcome,
  type DataSettingsView,
  type DeleteCallDataRequest,
  type GetDataSettingsQuery,
  type RetentionSweepBody,
  type RetentionSweepResult,
  type UpdateDataSettingsBody,
} from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { CallDataService } from './call-data.service';

/** An account's data settings and deletions, forwarded by the gateway; the operator's retention sweep. */
@Controller()
export class CallDataNatsController {
  constructor(private readonly callData: CallDataService) {}

  @RpcPattern(DataSettingsRpc.get)
  dataSettings(@Payload() _request: GetDataSettingsQuery, @Caller() ctx: RpcContext): Promise<DataSettingsView> {
    return this.callData.dataSettings(requireAccount(ctx));
  }

  @RpcPattern(DataSettingsRpc.update)
  updateDataSettings(@Payload() body: UpdateDataSettingsBody, @Caller() ctx: RpcContext): Promise<DataSettingsView> {
    return this.callData.updateDataSettings(requireAccount(ctx), body);
  }

  @RpcPattern(CallsRpc.deleteRecording)
  deleteRecording(
    @Payload() request: DeleteCallDataRequest,
    @Caller() ctx: RpcContext,
  ): Promise<CallDataDeletionOutcome> {
    return this.callData.deleteRecording(requireAccount(ctx), request.call_id, request.deleted_by);
  }

  @RpcPattern(CallsRpc.deleteTranscript)
  deleteTranscript(
    @Payload() request: DeleteCallDataRequest,
    @Caller() ctx: RpcContext,
  ): Promise<CallDataDeletionOutcome> {
    return this.callData.deleteTranscript(requireAccount(ctx), request.call_id, request.deleted_by);
  }

  /** Operator only (the gateway's admin route): a sweep at once, as if the clock read `now`. */
  @RpcPattern(RetentionRpc.sweep)
  sweep(@Payload() body: RetentionSweepBody): Promise<RetentionSweepResult> {
    return this.callData.sweep(body.now ? new Date(body.now) : new Date());
  }
}
