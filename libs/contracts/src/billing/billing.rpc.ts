import { defineRpc } from '../messaging/rpc';
import {
  ListLedgerCommand,
  PaymentFaultsBody,
  RunBillingCycleBody,
  type BillingRunResult,
  type LedgerPage,
  type PaymentFaultsView,
} from './billing.dto';

/** Operator requests about money, answered by numbers-billing. */
export const BillingRpc = {
  runCycle: defineRpc<RunBillingCycleBody, BillingRunResult>('billing.v1.cycle.run', RunBillingCycleBody),
  ledger: defineRpc<ListLedgerCommand, LedgerPage>('billing.v1.ledger.list', ListLedgerCommand),
  setPaymentFaults: defineRpc<PaymentFaultsBody, PaymentFaultsView>('billing.v1.payments.faults.set', PaymentFaultsBody),
} as const;
