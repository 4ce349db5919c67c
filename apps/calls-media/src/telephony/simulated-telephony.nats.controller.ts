import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  SimulatedProviderRpc,
  type SimulateProviderCallBody,
  type SimulatedCallAccepted,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { SimulatedTelephonyAdapter } from './simulated-telephony.adapter';

/** `POST /admin/provider/calls`, forwarded by the gateway's operator API. */
@Controller()
export class SimulatedTelephonyNatsController {
  constructor(private readonly provider: SimulatedTelephonyAdapter) {}

  @RpcPattern(SimulatedProviderRpc.reportCall)
  reportCall(@Payload() request: SimulateProviderCallBody, @Caller() ctx: RpcContext): Promise<SimulatedCallAccepted> {
    return this.provider.reportCall(request, { requestId: ctx.requestId });
  }
}
