/**
 * The telephony provider as the numbers domain sees it: buy a local number in an area code, release it, and list
 * what we own there (for reconciliation). The simulated adapter is the default; Twilio is another adapter behind the
 * same token (telephony.provider.ts chooses). `livemode` is the account's mode (docs/adr/0087-test-mode.md): the
 * binding sends a test account's numbers to the simulated provider whatever else is configured.
 */
export interface TelephonyProvider {
  /**
   * Buys a local number in `areaCode`. `orderRef` identifies the purchase: asking again with the same reference
   * answers the number bought the first time (a retry never buys twice).
   * Throws `NoNumbersAvailable` or `ProviderUnavailable`.
   */
  buyNumber(request: { areaCode: string; orderRef: string; livemode: boolean }): Promise<{ phoneNumber: string }>;
  /**
   * Gives a number back. Releasing a number already released succeeds. With `orderRef`, only the number bought under
   * that purchase is given back: never another copy of the phone number held under another purchase (a purchase
   * refused because the phone number is in service on another number, ADR 0121). Throws `ProviderUnavailable`.
   */
  releaseNumber(phoneNumber: string, options: ReleaseOptions): Promise<void>;
  /**
   * Every number we own at the provider now, with the purchase reference it was bought under (our order id), so
   * reconciliation can find what it sold us that we never recorded. Throws `ProviderUnavailable`.
   */
  listOwnedNumbers(): Promise<OwnedNumber[]>;
}

export interface ReleaseOptions {
  livemode: boolean;
  /** The purchase reference (our order id) the number was bought under, when known. */
  orderRef?: string;
}

/** A number we own at the provider. */
export interface OwnedNumber {
  phoneNumber: string;
  /** The `orderRef` of the purchase that bought it. */
  orderRef: string;
  purchasedAt: Date;
  /** Bought for a live account (false: from the test accounts' simulated provider). */
  livemode: boolean;
}

export const TELEPHONY_PROVIDER = Symbol('TELEPHONY_PROVIDER');

/** No number can be bought in the area code (409 `no_numbers`). */
export class NoNumbersAvailable extends Error {
  constructor(readonly areaCode: string) {
    super(`no numbers available in area code ${areaCode}`);
    this.name = 'NoNumbersAvailable';
  }
}

/** A transient failure at the provider; retrying later may succeed (503 `provider_unavailable`). */
export class ProviderUnavailable extends Error {
  constructor(message = 'the telephony provider is unavailable') {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
