import { Controller, Get, HttpCode, Inject, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  AccountBalance,
  AccountsRpc,
  AutoTopUp,
  BillingRpc,
  CallsRpc,
  CardSetupSession,
  ConsoleAccountView,
  DailyUsage,
  DailyUsageQuery,
  LedgerPage,
  LedgerQuery,
  PaymentMethodView,
  ServiceError,
  UpdateAccountBody,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyRequest } from 'fastify';
import { Caller, type CallerOptions } from '../auth';
import type { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../config/tokens';
import { createValidationPipe } from '../http/validation.pipe';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard, accountIdOf, sessionOf } from './guards/session.guard';

/** The operator PATCH's rules, applied to the console's body (`null` or `{ threshold_cents, amount_cents }`). */
const validation = createValidationPipe();

/**
 * The account's money: everyone reads; only owners set auto-top-up (numbers-billing keeps the rules). In test mode
 * (docs/adr/0087) balance, ledger and usage are the test twin's; the account and its auto-top-up stay the live one's.
 */
@ApiTags('money')
@Controller('console/api')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class MoneyConsoleController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('account')
  @ApiOkResponse({ type: ConsoleAccountView })
  async account(@Req() request: FastifyRequest, @Caller() caller: CallerOptions): Promise<ConsoleAccountView> {
    return viewOf(await this.rpc.request(AccountsRpc.get, { account_id: sessionOf(request).accountId }, caller));
  }

  /**
   * Sets or removes auto-top-up with the operator PATCH's validation (400 naming `auto_top_up.amount_cents`...). The
   * body may be JSON `null`, which the global pipe refuses for a body, so it is read here and validated as the
   * `auto_top_up` field of the operator's body.
   */
  @Put('account/auto-top-up')
  @Roles(['owner'], 'change auto-top-up')
  // Read from the request, not with @Body(): the body is described here, as what the handler validates.
  @ApiExtraModels(AutoTopUp)
  @ApiBody({
    required: true,
    description: '`null` turns auto-top-up off.',
    schema: { oneOf: [{ $ref: getSchemaPath(AutoTopUp) }, { type: 'null' }] },
  })
  @ApiOkResponse({ type: ConsoleAccountView })
  async setAutoTopUp(@Req() request: FastifyRequest, @Caller() caller: CallerOptions): Promise<ConsoleAccountView> {
    if (request.body === undefined)
      throw new ServiceError(
        'invalid_request',
        'auto_top_up: send null to turn auto-top-up off, or { "threshold_cents", "amount_cents" }.',
      );
    const body = (await validation.transform(
      { auto_top_up: request.body },
      { type: 'body', metatype: UpdateAccountBody },
    )) as UpdateAccountBody;
    const updated = await this.rpc.request(
      AccountsRpc.update,
      { account_id: sessionOf(request).accountId, auto_top_up: body.auto_top_up ?? null },
      caller,
    );
    return viewOf(updated);
  }

  /** The card auto-top-up charges: Stripe's default payment method of the account's customer (ADR 0131). */
  @Get('payment-method')
  @ApiOkResponse({ type: PaymentMethodView })
  paymentMethod(@Caller() caller: CallerOptions): Promise<PaymentMethodView> {
    return this.rpc.request(BillingRpc.paymentMethod, {}, caller);
  }

  /**
   * Starts connecting a card: numbers-billing makes the account's Stripe customer if it has none and a Checkout
   * Session in setup mode; the console sends the browser to its `url`, and Stripe sends it back to the Billing page.
   */
  @Post('payment-method/setup')
  @HttpCode(201)
  @Roles(['owner'], 'connect a card')
  @ApiCreatedResponse({ type: CardSetupSession })
  startCardSetup(@Req() request: FastifyRequest, @Caller() caller: CallerOptions): Promise<CardSetupSession> {
    const billing = `${this.consoleBaseOf(request)}money`;
    return this.rpc.request(
      BillingRpc.startCardSetup,
      { success_url: `${billing}?card=added`, cancel_url: `${billing}?card=cancelled` },
      caller,
    );
  }

  /**
   * The console the owner's browser is on, for Stripe to send it back to: the request's own origin when the page sent
   * it (a console reached as http://localhost:3000 as well as through 127.0.0.1, as the CSRF guard allows), else
   * `CONSOLE_URL`'s; always with `CONSOLE_URL`'s path.
   */
  private consoleBaseOf(request: FastifyRequest): string {
    const configured = new URL(this.config.console.url);
    const origin = request.headers.origin;
    const own = request.headers.host === undefined ? undefined : `${request.protocol}://${request.headers.host}`;
    return `${origin !== undefined && origin === own ? origin : configured.origin}${configured.pathname}`;
  }

  @Get('balance')
  @ApiOkResponse({ type: AccountBalance })
  balance(@Caller() caller: CallerOptions): Promise<AccountBalance> {
    return this.rpc.request(BillingRpc.balance, {}, caller);
  }

  @Get('ledger')
  @ApiOkResponse({ type: LedgerPage })
  ledger(@Query() query: LedgerQuery, @Caller() caller: CallerOptions): Promise<LedgerPage> {
    return this.rpc.request(BillingRpc.ledger, { ...query, account_id: accountIdOf(caller) }, caller);
  }

  @Get('usage/daily')
  @ApiOkResponse({ type: DailyUsage })
  usage(@Query() query: DailyUsageQuery, @Caller() caller: CallerOptions): Promise<DailyUsage> {
    return this.rpc.request(CallsRpc.usageDaily, query, caller);
  }
}

function viewOf(account: ConsoleAccountView): ConsoleAccountView {
  return {
    id: account.id,
    name: account.name,
    tier: account.tier,
    number_limit: account.number_limit,
    auto_top_up: account.auto_top_up,
  };
}
