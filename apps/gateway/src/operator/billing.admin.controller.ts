import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import {
  AccountIdParam,
  BillingRpc,
  LedgerQuery,
  PaymentFaultsBody,
  RunBillingCycleBody,
  type BillingRunResult,
  type LedgerPage,
  type PaymentFaultsView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** A billing run touches every due number; it may take longer than an ordinary request. */
const BILLING_RUN_TIMEOUT_MS = 120_000;

/** Money, owned by numbers-billing: the billing run, an account's ledger, the simulated card processor. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class BillingAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('billing/run')
  @HttpCode(200)
  run(@Body() body: RunBillingCycleBody, @Caller() caller: CallerOptions): Promise<BillingRunResult> {
    return this.rpc.request(BillingRpc.runCycle, body, { ...caller, timeoutMs: BILLING_RUN_TIMEOUT_MS });
  }

  @Get('accounts/:account_id/ledger')
  ledger(
    @Param() params: AccountIdParam,
    @Query() query: LedgerQuery,
    @Caller() caller: CallerOptions,
  ): Promise<LedgerPage> {
    return this.rpc.request(BillingRpc.ledger, { ...query, account_id: params.account_id }, caller);
  }

  @Put('payments/faults')
  setPaymentFaults(@Body() body: PaymentFaultsBody, @Caller() caller: CallerOptions): Promise<PaymentFaultsView> {
    return this.rpc.request(BillingRpc.setPaymentFaults, body, caller);
  }
}
