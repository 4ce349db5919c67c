import type { Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { createTwilioClient } from '@switchboard/providers';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { SimulatedTelephonyAdapter } from './simulated-telephony.adapter';
import {
  TELEPHONY_PROVIDER,
  type OwnedNumber,
  type ReleaseOptions,
  type TelephonyProvider,
} from './telephony-provider.port';
import { TwilioTelephonyAdapter } from './twilio-telephony.adapter';

/**
 * Live accounts' numbers from the real provider, test accounts' from the simulated one (docs/adr/0087-test-mode.md).
 * Reconciliation sees both, each number marked with the mode it was bought for, so a stray goes back where it came
 * from.
 */
export class TelephonyProviderByMode implements TelephonyProvider {
  constructor(
    private readonly live: TelephonyProvider,
    private readonly test: TelephonyProvider,
  ) {}

  buyNumber(request: { areaCode: string; orderRef: string; livemode: boolean }): Promise<{ phoneNumber: string }> {
    return (request.livemode ? this.live : this.test).buyNumber(request);
  }

  releaseNumber(phoneNumber: string, options: ReleaseOptions): Promise<void> {
    return (options.livemode ? this.live : this.test).releaseNumber(phoneNumber, options);
  }

  async listOwnedNumbers(): Promise<OwnedNumber[]> {
    const [live, test] = await Promise.all([this.live.listOwnedNumbers(), this.test.listOwnedNumbers()]);
    return [
      ...live.map((number) => ({ ...number, livemode: true })),
      ...test.map((number) => ({ ...number, livemode: false })),
    ];
  }
}

/** The one place that chooses the telephony adapter, from the config read at start. */
export const telephonyProvider: Provider = {
  provide: TELEPHONY_PROVIDER,
  inject: [NUMBERS_BILLING_CONFIG, SimulatedTelephonyAdapter, LOGGER],
  useFactory: async (
    config: NumbersBillingConfig,
    simulated: SimulatedTelephonyAdapter,
    logger: Logger,
  ): Promise<TelephonyProvider> => {
    if (!config.twilio) return simulated;
    const { client, publicBaseUrl } = config.twilio;
    logger.info(
      { stand_in: client.apiBaseUrl?.href, public_base_url: publicBaseUrl },
      "live accounts' numbers are bought from Twilio; test accounts' from the simulated provider",
    );
    const twilio = new TwilioTelephonyAdapter(await createTwilioClient(client), {
      voiceUrl: `${publicBaseUrl}/provider-webhooks/twilio/voice`,
      statusCallback: `${publicBaseUrl}/provider-webhooks/twilio/status`,
    });
    return new TelephonyProviderByMode(twilio, simulated);
  },
};
