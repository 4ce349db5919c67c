import type { Twilio } from 'twilio';
import type { TwilioSender } from '../config/lostfound.config';
import { SmsRejected, type SmsSender, type TextMessage } from './sms.port';

/**
 * Texts to claimants through Twilio Messaging (docs/adr/0083-real-providers.md): one Messages create per
 * text. Twilio answers 201 once it has queued the text. A 4xx other than 429 is a refusal that will not change (an
 * invalid or unsubscribed number, a body Twilio will not send): `SmsRejected`, never tried again. A 429, a 5xx or a
 * time-out is thrown as it is: the match stays pending and the notifier tries again later.
 */
export class TwilioSmsSender implements SmsSender {
  constructor(
    private readonly client: Twilio,
    private readonly sender: TwilioSender,
  ) {}

  async send(message: TextMessage): Promise<void> {
    try {
      await this.client.messages.create({ to: message.to, body: message.body, ...this.sender });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined && status >= 400 && status < 500 && status !== 429)
        throw new SmsRejected(
          `Twilio refused the text (HTTP ${status}, error ${(error as { code?: number }).code}): ${(error as Error).message}`,
        );
      throw error;
    }
  }
}
