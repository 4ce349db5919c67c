import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  BillingRpc,
  DEFAULT_PAGE_LIMIT,
  ServiceError,
  type BillingRunResult,
  type LedgerKind,
  type LedgerPage,
  type ListLedgerCommand,
  type PaymentFaultsBody,
  type PaymentFaultsView,
  type RunBillingCycleBody,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { LedgerRepository } from '../ledger/ledger.repository';
import { millicentsToCents, toSafeNumber } from '../money/money';
import { SimulatedPaymentAdapter } from '../payments/simulated-payment.adapter';
import { BillingCycleService } from './billing-cycle.service';

/** Operator requests about money: the billing run, an account's ledger, the simulated card processor. */
@Controller()
export class BillingNatsController {
  constructor(
    private readonly cycle: BillingCycleService,
    private readonly ledger: LedgerRepository,
    private readonly payments: SimulatedPaymentAdapter,
  ) {}

  @RpcPattern(BillingRpc.runCycle)
  run(@Payload() request: RunBillingCycleBody, @Caller() ctx: RpcContext): Promise<BillingRunResult> {
    return this.cycle.run(request.now ? new Date(request.now) : new Date(), ctx.requestId);
  }

  @RpcPattern(BillingRpc.ledger)
  async ledgerPage(@Payload() request: ListLedgerCommand): Promise<LedgerPage> {
    const totals = await this.ledger.reconcile(request.account_id);
    if (!totals) throw new ServiceError('not_found', 'No account with that id.');
    const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
    let after: bigint | undefined;
    if (request.starting_after !== undefined) {
      const match = /^le_([1-9]\d{0,17})$/.exec(request.starting_after);
      if (!match) throw new ServiceError('invalid_request', 'starting_after must be a ledger entry id (le_<n>).');
      after = BigInt(match[1]);
    }
    const rows = await this.ledger.page(request.account_id, limit + 1, after);
    return {
      account_id: request.account_id,
      balance_cents: toSafeNumber(millicentsToCents(totals.balance)),
      balance_millicents: toSafeNumber(totals.balance),
      data: rows.slice(0, limit).map((row) => ({
        id: `le_${row.id}`,
        kind: row.kind as LedgerKind,
        reference: row.reference,
        amount_millicents: toSafeNumber(row.amount_millicents),
        balance_after_millicents: toSafeNumber(row.balance_after_millicents),
        description: row.description,
        created_at: row.created_at.toISOString(),
      })),
      has_more: rows.length > limit,
    };
  }

  @RpcPattern(BillingRpc.setPaymentFaults)
  setPaymentFaults(@Payload() request: PaymentFaultsBody): Promise<PaymentFaultsView> {
    return this.payments.setFaults(request.charge_failures);
  }
}
