import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountIdParam, AccountsRpc, CreateLocationBody, LocationsRpc, type LocationView } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** Locations are owned by lostfound; the account must exist (numbers-billing answers 404 otherwise). */
@Controller('admin/accounts/:account_id/locations')
@UseGuards(AdminTokenGuard)
export class LocationsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  async create(@Param() params: AccountIdParam, @Body() body: CreateLocationBody, @Caller() caller: CallerOptions): Promise<LocationView> {
    await this.rpc.request(AccountsRpc.get, { account_id: params.account_id }, caller);
    return this.rpc.request(LocationsRpc.create, { ...body, account_id: params.account_id }, caller);
  }
}
