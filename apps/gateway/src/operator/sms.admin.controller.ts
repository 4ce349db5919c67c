import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ListSmsQuery, SimulatedSmsRpc, type SmsList } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** `GET /admin/sms?to=E.164`: the texts the simulated SMS provider (in lostfound) sent to one number, newest first. */
@Controller('admin/sms')
@UseGuards(AdminTokenGuard)
export class SmsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Query() query: ListSmsQuery, @Caller() caller: CallerOptions): Promise<SmsList> {
    return this.rpc.request(SimulatedSmsRpc.list, { to: query.to }, caller);
  }
}
