import { Inject, Injectable } from '@nestjs/common';
import {
  LOST_ITEM_REPORT_OUTCOME,
  ServiceError,
  ServiceNumberRpc,
  simulatedCallStartedAt,
  type SimulateProviderCallBody,
  type SimulatedCallAccepted,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { CALL_REPORT_SINK, type CallReportSink } from './call-report-sink.port';
import { newCallSid } from './call-sid';
import { simulatedCallReport } from './simulated-call-report';
import { SimulatedLiveCallsPlayer } from './simulated-live-calls.player';

/**
 * The simulated telephony provider (`POST /admin/provider/calls`): on the operator's word it reports a call exactly
 * as a real provider's webhook adapter would, through the call report sink (`CallReportsService.receive`), either
 * completed at once or, with `live`, played as it happens (its start, each turn, its end: `SimulatedLiveCallsPlayer`).
 * Like a real provider, it takes calls only to numbers in service: it asks numbers-billing, which holds every number's
 * record, so the gateway forwards the operator's request and this is the one place that decides (docs/live-calls.md).
 */
@Injectable()
export class SimulatedTelephonyAdapter {
  constructor(
    @Inject(CALL_REPORT_SINK) private readonly reports: CallReportSink,
    private readonly player: SimulatedLiveCallsPlayer,
    private readonly rpc: RpcClient,
    @Inject(CALLS_MEDIA_CONFIG) private readonly config: CallsMediaConfig,
  ) {}

  async reportCall(
    command: SimulateProviderCallBody,
    cause: { requestId?: string } = {},
  ): Promise<SimulatedCallAccepted> {
    if (command.lost_item !== undefined && command.outcome !== LOST_ITEM_REPORT_OUTCOME) {
      throw new ServiceError('invalid_request', `lost_item is taken only with outcome ${LOST_ITEM_REPORT_OUTCOME}.`);
    }
    const now = new Date();
    // A report that says when its call started is judged then (a late report of a call taken before a release is
    // the old owner's, ADR 0121); one that does not is judged now: a number released a moment ago takes no call.
    const at = command.started_at !== undefined ? new Date(command.started_at).toISOString() : now.toISOString();
    const standing = await this.rpc.request(
      ServiceNumberRpc,
      { phone_number: command.to, at },
      { requestId: cause.requestId },
    );
    if (!standing.in_service) {
      throw new ServiceError(
        'number_not_in_service',
        standing.reason === 'released'
          ? `to ${command.to} was released before ${at}; no call can be reported to it.`
          : `to ${command.to} is not a Switchboard number; no call can be reported to it.`,
      );
    }
    const callSid = newCallSid();
    if (command.live) {
      // A live call starts now (or when the operator says), and its end comes after its turns are played.
      const startedAt = command.started_at !== undefined ? new Date(command.started_at) : now;
      await this.player.play({ call_sid: callSid, started_at: startedAt.toISOString(), command }, cause);
      return { call_sid: callSid };
    }
    // Without one, the call started its duration ago, but never before the tenure of the number that holds the phone
    // number now: a call to a number provisioned a moment ago is its owner's, not a previous holder's (ADR 0121).
    const report = simulatedCallReport(callSid, command, simulatedCallStartedAt(command, now, standing.held_since));
    // A real provider's webhook is answered at once; the operator route waits a moment for the report to be
    // settled, so a call to a number whose events are still in flight is listed when the route answers.
    await this.reports.receive(report, { requestId: cause.requestId, settleWithinMs: this.config.simulatedSettleMs });
    return { call_sid: callSid };
  }
}
