import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ProviderRpc,
  type ProviderFaultsBody,
  type ProviderFaultsView,
  type ProviderStockView,
  type SetProviderStockCommand,
} from '@switchboard/contracts';
import { RpcPattern } from '@switchboard/messaging';
import { SimulatedTelephonyAdapter } from './simulated-telephony.adapter';

/** Operator controls of the simulated provider (`PUT /admin/provider/stock/{area_code}`, `PUT /admin/provider/faults`). */
@Controller()
export class SimulatedTelephonyNatsController {
  constructor(private readonly simulated: SimulatedTelephonyAdapter) {}

  @RpcPattern(ProviderRpc.setStock)
  setStock(@Payload() request: SetProviderStockCommand): Promise<ProviderStockView> {
    return this.simulated.setStock(request.area_code, request.available);
  }

  @RpcPattern(ProviderRpc.setFaults)
  setFaults(@Payload() request: ProviderFaultsBody): Promise<ProviderFaultsView> {
    return this.simulated.setFaults(request.provision_failures);
  }
}
