import { Injectable } from '@nestjs/common';
import { SimulatedSmsRpc, type ListSmsQuery, type SmsList } from '@switchboard/contracts';
import { RpcHandler } from '@switchboard/messaging';
import { SimulatedSmsAdapter } from './simulated-sms.adapter';

/** Operator route `GET /admin/sms?to=`: what the simulated SMS provider sent to one number. */
@Injectable()
export class SmsNatsController {
  constructor(private readonly simulated: SimulatedSmsAdapter) {}

  @RpcHandler(SimulatedSmsRpc.list)
  async list(request: ListSmsQuery): Promise<SmsList> {
    return { data: await this.simulated.sentTo(request.to) };
  }
}
