import { defineRpc } from '../messaging/rpc';
import {
  ProviderFaultsBody,
  SetProviderStockCommand,
  type ProviderFaultsView,
  type ProviderStockView,
} from './provider.dto';

/**
 * Operator controls of the simulated telephony provider (operator contract). The simulated provider is an
 * adapter inside numbers-billing, so these are answered there. With a real provider configured they still drive the
 * simulated one, which sells test accounts' numbers (docs/adr/0087-test-mode.md).
 */
export const ProviderRpc = {
  setStock: defineRpc<SetProviderStockCommand, ProviderStockView>(
    'numbers.v1.provider.stock.set',
    SetProviderStockCommand,
  ),
  setFaults: defineRpc<ProviderFaultsBody, ProviderFaultsView>('numbers.v1.provider.faults.set', ProviderFaultsBody),
} as const;
