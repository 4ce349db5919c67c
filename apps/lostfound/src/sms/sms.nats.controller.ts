import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SimulatedSmsRpc, type ListSmsQuery, type SmsList } from '@switchboard/contracts';
import { RpcPattern } from '@switchboard/messaging';
import { SimulatedSmsAdapter } from './simulated-sms.adapter';

/** Operator route `GET /admin/sms?to=`: what the simulated SMS provider sent to one number. */
@Controller()
export class SmsNatsController {
  constructor(private readonly simulated: SimulatedSmsAdapter) {}

  @RpcPattern(SimulatedSmsRpc.list)
  async list(@Payload() request: ListSmsQuery): Promise<SmsList> {
    return { data: await this.simulated.sentTo(request.to) };
  }
}
