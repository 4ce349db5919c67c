import { Body, Controller, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  AccountIdParam,
  AccountsRpc,
  CreateLocationBody,
  LocationOfAccount,
  LocationsRpc,
  UpdateLocationBody,
  type LocationView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** Locations are owned by lostfound; the account must exist (numbers-billing answers 404 otherwise). */
@Controller('admin/accounts/:account_id/locations')
@UseGuards(AdminTokenGuard)
export class LocationsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  async create(
    @Param() params: AccountIdParam,
    @Body() body: CreateLocationBody,
    @Caller() caller: CallerOptions,
  ): Promise<LocationView> {
    await this.rpc.request(AccountsRpc.get, { account_id: params.account_id }, caller);
    return this.rpc.request(LocationsRpc.create, { ...body, account_id: params.account_id }, caller);
  }

  /** `hold_days` and `lostfound_enabled` (docs/adr/0079); 404 not_found for a location the account does not have. */
  @Patch(':location_id')
  update(
    @Param() params: LocationOfAccount,
    @Body() body: UpdateLocationBody,
    @Caller() caller: CallerOptions,
  ): Promise<LocationView> {
    return this.rpc.request(
      LocationsRpc.update,
      { ...body, account_id: params.account_id, location_id: params.location_id },
      caller,
    );
  }

  /** A new claimant-page slug; the old address answers 404 at once (docs/adr/0079). */
  @Post(':location_id/public-slug')
  @HttpCode(200)
  rotateSlug(@Param() params: LocationOfAccount, @Caller() caller: CallerOptions): Promise<LocationView> {
    return this.rpc.request(
      LocationsRpc.rotateSlug,
      { account_id: params.account_id, location_id: params.location_id },
      caller,
    );
  }
}
