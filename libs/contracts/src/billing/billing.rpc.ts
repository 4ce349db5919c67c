import { defineRpc } from '../messaging/rpc';
import {
  GetBalanceQuery,
  ListLedgerCommand,
  PaymentFaultsBody,
  RunBillingCycleBody,
  type AccountBalance,
  type BillingRunResult,
  type LedgerPage,
  type PaymentFaultsView,
} from './billing.dto';
import {
  GetPaymentMethodQuery,
  StartCardSetupCommand,
  type CardSetupSession,
  type PaymentMethodView,
} from './card-setup.dto';

/** Requests about money, answered by numbers-billing: the operator's, and the account's own balance. */
export const BillingRpc = {
  runCycle: defineRpc<RunBillingCycleBody, BillingRunResult>('billing.v1.cycle.run', RunBillingCycleBody),
  ledger: defineRpc<ListLedgerCommand, LedgerPage>('billing.v1.ledger.list', ListLedgerCommand),
  setPaymentFaults: defineRpc<PaymentFaultsBody, PaymentFaultsView>(
    'billing.v1.payments.faults.set',
    PaymentFaultsBody,
  ),
  /** Account-scoped (`GET /balance`): the account travels in the `sb-account-id` header. */
  balance: defineRpc<GetBalanceQuery, AccountBalance>('billing.v1.balance.get', GetBalanceQuery),
  /** Account-scoped (console): a Stripe Checkout session in setup mode for the account's customer (ADR 0131). */
  startCardSetup: defineRpc<StartCardSetupCommand, CardSetupSession>('billing.v1.card.setup', StartCardSetupCommand),
  /** Account-scoped (console): the card auto-top-up charges. */
  paymentMethod: defineRpc<GetPaymentMethodQuery, PaymentMethodView>('billing.v1.card.get', GetPaymentMethodQuery),
} as const;
