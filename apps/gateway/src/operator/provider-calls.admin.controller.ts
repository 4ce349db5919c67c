import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  LOST_ITEM_REPORT_OUTCOME,
  ServiceError,
  ServiceNumberRpc,
  SimulateProviderCallBody,
  SimulatedProviderRpc,
  simulatedCallStartedAt,
  type SimulatedCallAccepted,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** Long enough for the simulated provider to write an hour of MP3 and settle the report. */
const REPORT_TIMEOUT_MS = 30_000;

/**
 * `POST /admin/provider/calls` (operator contract): the simulated telephony provider inside calls-media reports a
 * completed call, which then travels the path a real provider's report takes. A provider reports calls only to
 * numbers it has in service: a report for a number that is unknown, or released (before the `started_at` sent, or
 * before now when none is sent), is refused at once with 422 `number_not_in_service` and changes nothing; any other
 * valid body is 202 `{ call_sid }`
 * (docs/adr/0021-provider-call-reports.md, docs/adr/0057-self-service-reads-and-updates.md). Without `started_at`, the
 * call starts `duration_sec` before now, or when the number holding `to` was provisioned if that is later (ADR 0121).
 */
@Controller('admin/provider/calls')
@UseGuards(AdminTokenGuard)
export class ProviderCallsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(202)
  async report(
    @Body() body: SimulateProviderCallBody,
    @Caller() caller: CallerOptions,
  ): Promise<SimulatedCallAccepted> {
    if (body.lost_item !== undefined && body.outcome !== LOST_ITEM_REPORT_OUTCOME) {
      throw new ServiceError('invalid_request', `lost_item is taken only with outcome ${LOST_ITEM_REPORT_OUTCOME}.`);
    }
    const now = new Date();
    // A report that says when its call started is judged then (a late report of a call taken before a release is
    // the old owner's, ADR 0121); one that does not is judged now: a number released a moment ago takes no report.
    const at = body.started_at !== undefined ? new Date(body.started_at).toISOString() : now.toISOString();
    const standing = await this.rpc.request(ServiceNumberRpc, { phone_number: body.to, at }, caller);
    if (!standing.in_service) {
      throw new ServiceError(
        'number_not_in_service',
        standing.reason === 'released'
          ? `to ${body.to} was released before ${at}; no call can be reported to it.`
          : `to ${body.to} is not a Switchboard number; no call can be reported to it.`,
      );
    }
    // Without one, the call started its duration ago, but never before the tenure of the number that holds the phone
    // number now: a call to a number provisioned a moment ago is its owner's, not a previous holder's (ADR 0121).
    const startedAt = simulatedCallStartedAt(body, now, standing.held_since).toISOString();
    return this.rpc.request(
      SimulatedProviderRpc.reportCall,
      { ...body, started_at: startedAt },
      { ...caller, timeoutMs: REPORT_TIMEOUT_MS },
    );
  }
}
