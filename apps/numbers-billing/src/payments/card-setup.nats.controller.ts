import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  BillingRpc,
  type CardSetupSession,
  type GetPaymentMethodQuery,
  type PaymentMethodView,
  type StartCardSetupCommand,
} from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { CardSetupService } from './card-setup.service';

/** The console's card setup (docs/adr/0131), for the caller's own account (it travels in the request's headers). */
@Controller()
export class CardSetupNatsController {
  constructor(private readonly cardSetup: CardSetupService) {}

  @RpcPattern(BillingRpc.startCardSetup)
  start(@Payload() request: StartCardSetupCommand, @Caller() ctx: RpcContext): Promise<CardSetupSession> {
    return this.cardSetup.start(requireAccount(ctx), {
      successUrl: request.success_url,
      cancelUrl: request.cancel_url,
    });
  }

  @RpcPattern(BillingRpc.paymentMethod)
  paymentMethod(@Payload() _request: GetPaymentMethodQuery, @Caller() ctx: RpcContext): Promise<PaymentMethodView> {
    return this.cardSetup.paymentMethod(requireAccount(ctx));
  }
}
