import { Injectable } from '@nestjs/common';
import {
  SimulatedProviderRpc,
  type SimulateProviderCallBody,
  type SimulatedCallAccepted,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { SimulatedTelephonyAdapter } from './simulated-telephony.adapter';

/** `POST /admin/provider/calls`, forwarded by the gateway's operator API. */
@Injectable()
export class SimulatedTelephonyNatsController {
  constructor(private readonly provider: SimulatedTelephonyAdapter) {}

  @RpcHandler(SimulatedProviderRpc.reportCall)
  reportCall(request: SimulateProviderCallBody, ctx: RpcContext): Promise<SimulatedCallAccepted> {
    return this.provider.reportCall(request, { requestId: ctx.requestId });
  }
}
