import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { RetentionRpc, RetentionSweepBody, type RetentionSweepResult } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** A sweep deletes in batches until nothing has expired; a first sweep of a large account takes a while. */
const RETENTION_SWEEP_TIMEOUT_MS = 300_000;

/** The retention sweep at once, as if the clock read `now` (calls-media runs it on its own every RETENTION_SWEEP_MS). */
@Controller('admin/calls')
@UseGuards(AdminTokenGuard)
export class RetentionAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('retention-sweep')
  @HttpCode(200)
  sweep(@Body() body: RetentionSweepBody, @Caller() caller: CallerOptions): Promise<RetentionSweepResult> {
    return this.rpc.request(RetentionRpc.sweep, body, { ...caller, timeoutMs: RETENTION_SWEEP_TIMEOUT_MS });
  }
}
