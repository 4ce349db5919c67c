import { Body, Controller, Param, Put, UseGuards } from '@nestjs/common';
import {
  AreaCodeParam,
  ProviderFaultsBody,
  ProviderRpc,
  ProviderStockBody,
  type ProviderFaultsView,
  type ProviderStockView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** The simulated telephony provider lives in numbers-billing; these operator routes drive it. */
@Controller('admin/provider')
@UseGuards(AdminTokenGuard)
export class ProviderAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Put('stock/:area_code')
  setStock(
    @Param() params: AreaCodeParam,
    @Body() body: ProviderStockBody,
    @Caller() caller: CallerOptions,
  ): Promise<ProviderStockView> {
    return this.rpc.request(ProviderRpc.setStock, { area_code: params.area_code, available: body.available }, caller);
  }

  @Put('faults')
  setFaults(@Body() body: ProviderFaultsBody, @Caller() caller: CallerOptions): Promise<ProviderFaultsView> {
    return this.rpc.request(ProviderRpc.setFaults, body, caller);
  }
}
