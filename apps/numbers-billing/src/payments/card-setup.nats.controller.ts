import { Injectable } from '@nestjs/common';
import {
  BillingRpc,
  type CardSetupSession,
  type GetPaymentMethodQuery,
  type PaymentMethodView,
  type StartCardSetupCommand,
} from '@switchboard/contracts';
import { RpcHandler, requireAccount, type RpcContext } from '@switchboard/messaging';
import { CardSetupService } from './card-setup.service';

/** The console's card setup (docs/adr/0131), for the caller's own account (it travels in the request's headers). */
@Injectable()
export class CardSetupNatsController {
  constructor(private readonly cardSetup: CardSetupService) {}

  @RpcHandler(BillingRpc.startCardSetup)
  start(request: StartCardSetupCommand, ctx: RpcContext): Promise<CardSetupSession> {
    return this.cardSetup.start(requireAccount(ctx), {
      successUrl: request.success_url,
      cancelUrl: request.cancel_url,
    });
  }

  @RpcHandler(BillingRpc.paymentMethod)
  paymentMethod(_request: GetPaymentMethodQuery, ctx: RpcContext): Promise<PaymentMethodView> {
    return this.cardSetup.paymentMethod(requireAccount(ctx));
  }
}
