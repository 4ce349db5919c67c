import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { SimulateProviderCallBody, SimulatedProviderRpc, type SimulatedCallAccepted } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { RequestId } from '../auth/authenticated-request';

/** Long enough for the simulated provider to write an hour of MP3 and settle the report. */
const REPORT_TIMEOUT_MS = 30_000;

/**
 * `POST /admin/provider/calls` (operator contract): the simulated telephony provider inside calls-media reports a
 * completed call, which then travels the path a real provider's report takes. 202 `{ call_sid }` for any valid
 * body, whether or not the number is anyone's (docs/adr/0021-provider-call-reports.md).
 */
@Controller('admin/provider/calls')
@UseGuards(AdminTokenGuard)
export class ProviderCallsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(202)
  report(@Body() body: SimulateProviderCallBody, @RequestId() requestId: string): Promise<SimulatedCallAccepted> {
    return this.rpc.request(SimulatedProviderRpc.reportCall, body, { requestId, timeoutMs: REPORT_TIMEOUT_MS });
  }
}
