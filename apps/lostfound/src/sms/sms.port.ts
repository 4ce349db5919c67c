/** A text message to one phone. */
export interface TextMessage {
  /** E.164. */
  to: string;
  body: string;
  /** The account's mode (docs/adr/0087-test-mode.md): a test account's texts always go to the simulated provider. */
  livemode: boolean;
}

/**
 * The SMS provider port. The domain only ever sends; which provider (the simulated one by default, Twilio with
 * LOSTFOUND_SMS_PROVIDER=twilio) is chosen in sms.provider.ts. Throws `SmsRejected` when the provider refuses the
 * message for good, anything else when it did not take it now (tried again later).
 */
export interface SmsSender {
  send(message: TextMessage): Promise<void>;
}

export const SMS_SENDER = Symbol('SMS_SENDER');

/** The provider refused the text and always will (an invalid or unsubscribed number): not tried again. */
export class SmsRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsRejected';
  }
}
