import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { SimulateProviderCallBody, SimulatedProviderRpc, type SimulatedCallAccepted } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** Long enough for the simulated provider to write an hour of MP3 and settle the report. */
const REPORT_TIMEOUT_MS = 30_000;

/**
 * `POST /admin/provider/calls` (operator contract): forwarded to the simulated telephony provider inside calls-media,
 * which decides whether the number is in service (422 `number_not_in_service` otherwise, changing nothing) and reports
 * the call completed, or plays it live with `live` (docs/live-calls.md), along the path a real provider's reports take.
 * 202 `{ call_sid }` (docs/adr/0121-calls-and-recordings.md).
 */
@Controller('admin/provider/calls')
@UseGuards(AdminTokenGuard)
export class ProviderCallsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(202)
  report(@Body() body: SimulateProviderCallBody, @Caller() caller: CallerOptions): Promise<SimulatedCallAccepted> {
    return this.rpc.request(SimulatedProviderRpc.reportCall, body, { ...caller, timeoutMs: REPORT_TIMEOUT_MS });
  }
}
