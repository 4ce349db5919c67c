import type { Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { createTwilioClient } from '@switchboard/providers';
import type { LostfoundConfig } from '../config/lostfound.config';
import { LOSTFOUND_CONFIG } from '../config/tokens';
import { SimulatedSmsAdapter } from './simulated-sms.adapter';
import { SMS_SENDER, type SmsSender, type TextMessage } from './sms.port';
import { TwilioSmsSender } from './twilio-sms.sender';

/** Live accounts' texts through the real provider, test accounts' through the simulated one (ADR 0087). */
export class SmsSenderByMode implements SmsSender {
  constructor(
    private readonly live: SmsSender,
    private readonly test: SmsSender,
  ) {}

  send(message: TextMessage): Promise<void> {
    return (message.livemode ? this.live : this.test).send(message);
  }
}

/** The one place that chooses the SMS adapter, from the config read at start (LOSTFOUND_SMS_PROVIDER). */
export const smsSenderProvider: Provider = {
  provide: SMS_SENDER,
  inject: [LOSTFOUND_CONFIG, SimulatedSmsAdapter, LOGGER],
  useFactory: async (config: LostfoundConfig, simulated: SimulatedSmsAdapter, logger: Logger): Promise<SmsSender> => {
    if (config.sms.provider === 'simulated') return simulated;
    logger.info(
      { stand_in: config.sms.twilio.apiBaseUrl?.href },
      "live accounts' claimants are texted through Twilio; test accounts' through the simulated provider",
    );
    const twilio = new TwilioSmsSender(await createTwilioClient(config.sms.twilio), config.sms.sender);
    return new SmsSenderByMode(twilio, simulated);
  },
};
