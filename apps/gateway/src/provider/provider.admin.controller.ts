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
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { RequestId } from '../auth/authenticated-request';

/** The simulated telephony provider lives in numbers-billing; these operator routes drive it. */
@Controller('admin/provider')
@UseGuards(AdminTokenGuard)
export class ProviderAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Put('stock/:area_code')
  setStock(@Param() params: AreaCodeParam, @Body() body: ProviderStockBody, @RequestId() requestId: string): Promise<ProviderStockView> {
    return this.rpc.request(ProviderRpc.setStock, { area_code: params.area_code, available: body.available }, { requestId });
  }

  @Put('faults')
  setFaults(@Body() body: ProviderFaultsBody, @RequestId() requestId: string): Promise<ProviderFaultsView> {
    return this.rpc.request(ProviderRpc.setFaults, body, { requestId });
  }
}
