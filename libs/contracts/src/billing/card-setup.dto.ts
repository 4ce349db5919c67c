import { ApiProperty } from '../common/api-property';
import { IsString, Matches, MaxLength } from 'class-validator';

/**
 * Console: an owner connects the account's card on the processor's own page (Stripe Checkout in setup mode,
 * docs/adr/0131-auto-top-up-and-stripe.md). The account travels in the request's headers; the gateway names the
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
export class CardSetupSession {
  @ApiProperty({ format: 'uri' }) url: string;
}

/** The account's card for auto-top-up; the account travels in the request's headers, the body is empty. */
export class GetPaymentMethodQuery {}

/** The card's brand and last four digits, as the processor tells them. */
export class PaymentCardView {
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
}

/**
 * `stripe`: cards are connected through Stripe Checkout; `card` is the customer's default payment method once one is
 * connected. `simulated`: no processor is configured, the simulated one charges every account and there is no card to
 * connect (`card` is null).
 */
export class PaymentMethodView {
  @ApiProperty({ enum: ['stripe', 'simulated'] }) processor: 'stripe' | 'simulated';
  @ApiProperty({ type: PaymentCardView, nullable: true }) card: PaymentCardView | null;
}
