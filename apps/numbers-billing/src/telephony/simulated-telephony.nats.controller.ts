import { Injectable } from '@nestjs/common';
import {
  ProviderRpc,
  type ProviderFaultsBody,
  type ProviderFaultsView,
  type ProviderStockView,
  type SetProviderStockCommand,
} from '@switchboard/contracts';
import { RpcHandler } from '@switchboard/messaging';
import { SimulatedTelephonyAdapter } from './simulated-telephony.adapter';

/** Operator controls of the simulated provider (`PUT /admin/provider/stock/{area_code}`, `PUT /admin/provider/faults`). */
@Injectable()
export class SimulatedTelephonyNatsController {
  constructor(private readonly simulated: SimulatedTelephonyAdapter) {}

  @RpcHandler(ProviderRpc.setStock)
  setStock(request: SetProviderStockCommand): Promise<ProviderStockView> {
    return this.simulated.setStock(request.area_code, request.available);
  }

  @RpcHandler(ProviderRpc.setFaults)
  setFaults(request: ProviderFaultsBody): Promise<ProviderFaultsView> {
    return this.simulated.setFaults(request.provision_failures);
  }
}
