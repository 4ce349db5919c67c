/** A text message to one phone. */
export interface TextMessage {
  /** E.164. */
  to: string;
  body: string;
}

/**
 * The SMS provider port. The domain only ever sends; which provider (the simulated one by default, see
 * LOSTFOUND_SMS_PROVIDER) is chosen in lostfound.module.ts. Throws when the provider did not take the message.
 */
export interface SmsSender {
  send(message: TextMessage): Promise<void>;
}

export const SMS_SENDER = Symbol('SMS_SENDER');
