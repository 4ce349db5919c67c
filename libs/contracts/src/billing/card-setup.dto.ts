import { IsString, Matches, MaxLength } from 'class-validator';

/**
 * Console: an owner connects the account's card on the processor's own page (Stripe Checkout in setup mode,
 * docs/adr/0131-owners-connect-a-card.md). The account travels in the request's headers; the gateway names the
 * console pages Checkout sends the browser back to.
 */
export class StartCardSetupCommand {
  @IsString()
  @MaxLength(2000)
  @Matches(/^https?:\/\/\S+$/, { message: 'success_url must be an http(s) URL' })
  success_url: string;

  @IsString()
  @MaxLength(2000)
  @Matches(/^https?:\/\/\S+$/, { message: 'cancel_url must be an http(s) URL' })
  cancel_url: string;
}

/** Where to send the owner's browser: the processor's hosted page for entering a card. */
export interface CardSetupSession {
  url: string;
}

/** The account's card for auto-top-up; the account travels in the request's headers, the body is empty. */
export class GetPaymentMethodQuery {}

/**
 * `stripe`: cards are connected through Stripe Checkout; `card` is the customer's default payment method once one is
 * connected. `simulated`: no processor is configured, the simulated one charges every account and there is no card to
 * connect (`card` is null).
 */
export interface PaymentMethodView {
  processor: 'stripe' | 'simulated';
  card: { brand: string; last4: string } | null;
}
