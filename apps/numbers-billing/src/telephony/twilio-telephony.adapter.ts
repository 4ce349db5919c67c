import type { Twilio } from 'twilio';
import {
  NoNumbersAvailable,
  ProviderUnavailable,
  type OwnedNumber,
  type ReleaseOptions,
  type TelephonyProvider,
} from './telephony-provider.port';

/** How many available numbers one search asks for: a number sold to someone else between search and buy is skipped. */
export const TWILIO_SEARCH_SIZE = 5;

/** Twilio's error code for a number that is no longer for sale (sold between our search and our purchase). */
const NUMBER_NOT_AVAILABLE = 21422;

/** Where Twilio calls us about a number we bought (docs/adr/0083). */
export interface TwilioNumberUrls {
  /** Answered with the TwiML that hands the call to the agent (ADR 0083). */
  voiceUrl: string;
  /** Each call's progress: `/provider-webhooks/twilio/status`. */
  statusCallback: string;
}

/**
 * Telephony through Twilio (docs/adr/0083-real-providers.md): a purchase searches the area code's local
 * numbers and buys the first still for sale, pointing its voice URL at the agent and its status callback at our
 * provider webhooks, with our order id as its FriendlyName. That name makes a retry safe: asking again with the same
 * order id answers the number already bought under it, never a second one.
 */
export class TwilioTelephonyAdapter implements TelephonyProvider {
  constructor(
    private readonly client: Twilio,
    private readonly urls: TwilioNumberUrls,
  ) {}

  async buyNumber({ areaCode, orderRef }: { areaCode: string; orderRef: string }): Promise<{ phoneNumber: string }> {
    const already = await this.call(() => this.client.incomingPhoneNumbers.list({ friendlyName: orderRef, limit: 1 }));
    if (already.length > 0) return { phoneNumber: already[0].phoneNumber };
    const candidates = await this.call(() =>
      this.client.availablePhoneNumbers('US').local.list({ areaCode: Number(areaCode), limit: TWILIO_SEARCH_SIZE }),
    );
    for (const candidate of candidates) {
      try {
        const bought = await this.client.incomingPhoneNumbers.create({
          phoneNumber: candidate.phoneNumber,
          friendlyName: orderRef,
          voiceUrl: this.urls.voiceUrl,
          voiceMethod: 'POST',
          statusCallback: this.urls.statusCallback,
          statusCallbackMethod: 'POST',
        });
        return { phoneNumber: bought.phoneNumber };
      } catch (error) {
        if (codeOf(error) === NUMBER_NOT_AVAILABLE) continue;
        throw unavailable(error);
      }
    }
    throw new NoNumbersAvailable(areaCode);
  }

  async releaseNumber(phoneNumber: string, options?: ReleaseOptions): Promise<void> {
    // With the order, only the number bought under it (its FriendlyName), never another copy of the phone number.
    const filter = options?.orderRef ? { phoneNumber, friendlyName: options.orderRef } : { phoneNumber };
    const owned = await this.call(() => this.client.incomingPhoneNumbers.list({ ...filter, limit: 1 }));
    if (owned.length === 0) return;
    try {
      await this.client.incomingPhoneNumbers(owned[0].sid).remove();
    } catch (error) {
      // Removed meanwhile (a concurrent release): released is what was asked.
      if (statusOf(error) === 404) return;
      throw unavailable(error);
    }
  }

  async listOwnedNumbers(): Promise<OwnedNumber[]> {
    const numbers = await this.call(() => this.client.incomingPhoneNumbers.list({ pageSize: 1000 }));
    return numbers.map((number) => ({
      phoneNumber: number.phoneNumber,
      orderRef: number.friendlyName,
      purchasedAt: number.dateCreated,
      livemode: true,
    }));
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw unavailable(error);
    }
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { status?: number }).status;
}

function codeOf(error: unknown): number | undefined {
  return (error as { code?: number }).code;
}

/** Twilio's failure, for the port: a transient one to retry later (429, 5xx, a time-out, a refused connection). */
function unavailable(error: unknown): ProviderUnavailable {
  const status = statusOf(error);
  const code = codeOf(error);
  return new ProviderUnavailable(
    `Twilio did not complete the request${status ? ` (HTTP ${status}${code ? `, error ${code}` : ''})` : ''}: ${
      (error as Error).message ?? String(error)
    }`,
  );
}
